import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ASSETS_BUCKET,
  QUEUES,
  TABLES,
  TASK_RETENTION_DAYS,
  apiKeyTableName,
  visibilityTimeoutSeconds,
} from '../../lib/aws/resources.js';
import { TEST_STAGE, logicalId, synthesize, type Synthesized } from './synth.js';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});

describe('stateful stack', () => {
  it.each(Object.values(TABLES))('table $id: keys and indexes from resources.ts, PITR, encryption', (def) => {
    // Prepare
    const { table } = s.service.stateful.tables[def.id];
    // Act
    const props = s.stateful.toJSON().Resources[logicalId(table)].Properties;
    // Assess
    expect(props.KeySchema).toEqual([
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
      ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' }] : []),
    ]);
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(props.SSESpecification).toEqual({ SSEEnabled: true });
    expect((props.GlobalSecondaryIndexes ?? []).map((i: { IndexName: string }) => i.IndexName)).toEqual(
      def.indexes.map((i) => i.indexName),
    );
    if (def.ttlAttribute)
      expect(props.TimeToLiveSpecification).toEqual({ AttributeName: def.ttlAttribute, Enabled: true });
  });

  it('names only the API-key table, by the documented pattern, and outputs it', () => {
    const named = Object.values(s.stateful.findResources('AWS::DynamoDB::Table')).filter((r) => r.Properties.TableName);
    expect(named.map((r) => r.Properties.TableName)).toEqual([apiKeyTableName(TEST_STAGE)]);
    s.stateful.hasOutput('ApiKeyTableName', { Value: { Ref: logicalId(s.service.stateful.tables.ApiKeys.table) } });
  });

  it.each(Object.values(QUEUES))('queue $id: visibility 6x worker timeout, DLQ redrive with maxReceiveCount', (def) => {
    const { queue, dlq } = s.service.stateful.queues[def.id];
    const props = s.stateful.toJSON().Resources[logicalId(queue)].Properties;
    expect(props.VisibilityTimeout).toBe(visibilityTimeoutSeconds(def));
    expect(props.VisibilityTimeout).toBeGreaterThanOrEqual(6 * def.workerTimeoutSeconds);
    expect(props.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(dlq), 'Arn'] },
      maxReceiveCount: 5,
    });
    expect(props.SqsManagedSseEnabled).toBe(true);
  });

  it('queues refuse plain-HTTP access', () => {
    const policies = Object.values(s.stateful.findResources('AWS::SQS::QueuePolicy'));
    expect(policies).toHaveLength(Object.keys(QUEUES).length * 2);
    for (const p of policies) {
      expect(p.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('offloaded results expire a day after their task record (Tasks TTL)', () => {
    expect(TABLES.Tasks.ttlAttribute).toBe('expiresAt');
    s.stateful.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Prefix: 'results/', ExpirationInDays: TASK_RETENTION_DAYS + 1, Status: 'Enabled' }),
        ]),
      },
    });
  });

  it('asset bucket: public access blocked, SSE, lifecycle expiry, CORS for presigned GETs, TLS-only policy', () => {
    const id = logicalId(s.service.stateful.assets);
    s.stateful.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ ExpirationInDays: ASSETS_BUCKET.assetExpiryDays, Status: 'Enabled' }),
        ]),
      },
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedMethods: ['GET', 'HEAD'] })] },
      LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
    });
    s.stateful.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('credentials key rotates', () => {
    s.stateful.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  it('dashboard user pool carries an immutable custom:businessId and requires MFA', () => {
    s.stateful.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'ON',
      Schema: Match.arrayWith([Match.objectLike({ Name: 'businessId', AttributeDataType: 'String', Mutable: false })]),
    });
    s.stateful.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ReadAttributes: Match.arrayWith(['custom:businessId']),
      WriteAttributes: Match.not(Match.arrayWith(['custom:businessId'])),
    });
  });
});
