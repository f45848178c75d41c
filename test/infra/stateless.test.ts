import { BUNDLED_KNOWLEDGE_DIR } from '../../infra/node-function.js';
import { Match } from 'aws-cdk-lib/assertions';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUEUES, TABLES } from '../../lib/aws/resources.js';
import { ROUTES } from '../../lib/http/routes.js';
import { FALLBACK_HANDLER, handlerUses } from '../../infra/api.js';
import { logicalId, synthesize, type Synthesized } from './synth.js';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});

type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };
const actionsOf = (st: Statement): string[] => (Array.isArray(st.Action) ? st.Action : [st.Action]);

/** The role-policy statements of one function (its role's DefaultPolicy). */
function statementsOf(fnLogicalId: string): Statement[] {
  const fn = s.stateless.toJSON().Resources[fnLogicalId];
  const roleId: string = fn.Properties.Role['Fn::GetAtt'][0];
  const policies = Object.values(s.stateless.findResources('AWS::IAM::Policy')).filter((p) =>
    (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
  );
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}

const fnId = (handler: string): string => {
  const fn = s.service.stateless.api.functions.get(handler);
  if (!fn) throw new Error(`no function for ${handler}`);
  return logicalId(fn);
};

describe('HTTP API', () => {
  it.each(ROUTES.map((r) => ({ ...r })))('$method $path has a route to the $handler function', (route) => {
    const routes = s.stateless.findResources('AWS::ApiGatewayV2::Route', {
      Properties: { RouteKey: `${route.method} ${route.path}` },
    });
    expect(Object.keys(routes)).toHaveLength(1);
    const target = JSON.stringify(Object.values(routes)[0]?.Properties.Target);
    const integrationId = /"Ref":"(\w+)"/.exec(target)?.[1] ?? '';
    const integration = s.stateless.toJSON().Resources[integrationId];
    expect(JSON.stringify(integration.Properties.IntegrationUri)).toContain(fnId(route.handler));
  });

  it('$default falls back to the 405/404 handler', () => {
    const routes = Object.values(
      s.stateless.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: '$default' } }),
    );
    expect(routes).toHaveLength(1);
    const integrations = Object.values(s.stateless.findResources('AWS::ApiGatewayV2::Integration'));
    expect(integrations.some((i) => JSON.stringify(i.Properties.IntegrationUri).includes(fnId(FALLBACK_HANDLER)))).toBe(
      true,
    );
  });

  it('stage has access logs and throttling', () => {
    s.stateless.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });

  it.each([...handlerUses().keys()])('%s: nodejs22.x function', (handler) => {
    const props = s.stateless.toJSON().Resources[fnId(handler)].Properties;
    expect(props.Runtime).toBe('nodejs22.x');
    expect(props.Handler).toBe('index.handler');
    expect(props.Architectures).toEqual(['arm64']);
  });

  it.each([...handlerUses()].map(([handler, uses]) => ({ handler, uses: [...uses] })))(
    "$handler: IAM and environment follow its routes' uses",
    ({ handler, uses }) => {
      const statements = statementsOf(fnId(handler));
      const env: Record<string, unknown> =
        s.stateless.toJSON().Resources[fnId(handler)].Properties.Environment.Variables;
      for (const def of Object.values(TABLES)) {
        const cap = def.id.charAt(0).toLowerCase() + def.id.slice(1);
        const touching = statements.filter((st) => JSON.stringify(st.Resource).includes(`${def.id}Table`));
        const granted = touching.flatMap(actionsOf);
        expect(
          granted.some((a) => /Put|Update|Delete|Write/.test(a)),
          `${def.id} write`,
        ).toBe(uses.includes(`${cap}:write` as never));
        expect(
          granted.some((a) => /Get|Query/.test(a)),
          `${def.id} read`,
        ).toBe(uses.includes(`${cap}:read` as never));
        expect(def.envVar in env).toBe(granted.length > 0);
      }
      const all = statements.flatMap(actionsOf);
      expect(all.includes('kms:GenerateDataKey')).toBe(uses.includes('kms:encrypt'));
      expect(all.includes('kms:Encrypt')).toBe(false);
      expect(all.includes('kms:Decrypt')).toBe(false);
      expect(all.includes('s3:PutObject')).toBe(false);
      expect(all.includes('sqs:SendMessage')).toBe(uses.some((u) => u.endsWith('Queue:send')));
      expect(env.BTS_DASHBOARD_AUTH).toBe('cognito');
    },
  );
});

it('create-task knows the agent model provider (it answers 503 without one); other API functions do not', () => {
  for (const handler of handlerUses().keys()) {
    const env: Record<string, unknown> = s.stateless.toJSON().Resources[fnId(handler)].Properties.Environment.Variables;
    expect(env.BTS_MODEL_PROVIDER).toBe(handler === 'create-task' ? 'bedrock' : undefined);
  }
});

it('create-task carries the knowledge graph in its bundle, to check lookup tasks at submission; other API functions do not', () => {
  for (const handler of handlerUses().keys()) {
    const env: Record<string, unknown> = s.stateless.toJSON().Resources[fnId(handler)].Properties.Environment.Variables;
    expect(env.BTS_KNOWLEDGE_GRAPH_DIR).toBe(handler === 'create-task' ? BUNDLED_KNOWLEDGE_DIR : undefined);
  }
});

describe('API keys table', () => {
  it('is written only by the key-management functions; data-plane functions count requests in Activity, by key prefix', () => {
    for (const handler of handlerUses().keys()) {
      const statements = statementsOf(fnId(handler));
      const keyWrites = statements.filter(
        (st) =>
          JSON.stringify(st.Resource).includes('ApiKeysTable') &&
          actionsOf(st).some((a) => /Put|Update|Delete|Write/.test(a)),
      );
      expect(keyWrites.length > 0, handler).toBe(['create-api-key', 'revoke-api-key'].includes(handler));
      for (const st of statements.filter((x) => JSON.stringify(x.Resource).includes('ActivityTable'))) {
        const leading = st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
        expect(leading, handler).toEqual(
          expect.arrayContaining(
            actionsOf(st).includes('dynamodb:UpdateItem') ? ['rate#*', 'lastUsed#*'] : ['lastUsed#*'],
          ),
        );
        expect(JSON.stringify(leading)).not.toContain('running#');
      }
    }
  });
});

describe('IAM', () => {
  it('no policy in either stack has a wildcard action or a "*" resource on a data service', () => {
    for (const t of [s.stateful, s.stateless]) {
      for (const p of Object.values(t.findResources('AWS::IAM::Policy'))) {
        for (const st of p.Properties.PolicyDocument.Statement as Statement[]) {
          for (const a of actionsOf(st)) expect(a, a).not.toMatch(/(^\*$|:\*$)/);
          if (actionsOf(st).some((a) => /^(dynamodb|s3|sqs|kms):/.test(a))) expect(st.Resource).not.toBe('*');
        }
      }
    }
  });
});

describe('workers', () => {
  const workers = () => s.service.stateless.workers;

  it.each([
    ['agent', 'AgentTasks'],
    ['design', 'DesignTasks'],
  ] as const)('%s: image function, cmd, timeout, ephemeral storage, SQS source', (name, queueId) => {
    const def = QUEUES[queueId];
    const id = logicalId(workers()[name]);
    const props = s.stateless.toJSON().Resources[id].Properties;
    expect(props.PackageType).toBe('Image');
    expect(props.ImageConfig.Command).toEqual([`${name}.handler`]);
    expect(props.Timeout).toBe(def.workerTimeoutSeconds);
    expect(props.EphemeralStorage.Size).toBeGreaterThanOrEqual(2048);
    s.stateless.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: Match.anyValue() },
      EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp(`${queueId}Queue`) },
    });
    // Visibility (stateful stack) >= 6x the timeout of the function consuming it.
    const queue = s.stateful.toJSON().Resources[logicalId(s.service.stateful.queues[queueId].queue)].Properties;
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * props.Timeout);
  });

  it('agent worker decrypts credentials and keeps session state under sessions/ only', () => {
    const statements = statementsOf(logicalId(workers().agent));
    const actions = statements.flatMap(actionsOf);
    expect(actions).toEqual(
      expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey', 's3:GetObject', 's3:PutObject']),
    );
    expect(actions).not.toContain('kms:Encrypt');
    const s3Resources = JSON.stringify(
      statements.filter((st) => actionsOf(st).some((a) => a.startsWith('s3:'))).map((st) => st.Resource),
    );
    expect(s3Resources).toContain('sessions/*');
    expect(s3Resources).not.toContain('assets/*');
  });

  it('every KMS grant requires an encryption context of exactly {businessId, endUserId}', () => {
    const fns = [workers().agent, ...s.service.stateless.api.functions.values()].map((f) => logicalId(f));
    const kmsStatements = fns.flatMap(statementsOf).filter((st) => actionsOf(st).some((a) => a.startsWith('kms:')));
    expect(kmsStatements.length).toBeGreaterThanOrEqual(2);
    for (const st of kmsStatements) {
      expect(st.Condition).toEqual({
        'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['businessId', 'endUserId'] },
        Null: { 'kms:EncryptionContext:businessId': 'false', 'kms:EncryptionContext:endUserId': 'false' },
      });
    }
  });

  it.each([
    ['agent', ['bySession']],
    ['design', []],
  ] as const)(
    '%s worker: tasks by key (and only the indexes it queries), no byStatus, no Sessions table',
    (name, indexes) => {
      const statements = statementsOf(logicalId(workers()[name]));
      const resources = JSON.stringify(statements.map((st) => st.Resource));
      expect(resources).not.toContain('index/byStatus');
      expect(resources).not.toContain('SessionsTable');
      for (const index of indexes) expect(resources).toContain(`index/${index}`);
    },
  );

  it.each(['agent', 'design'] as const)(
    '%s worker: running slots only in Activity, its own queue to defer and retry',
    (name) => {
      const id = logicalId(workers()[name]);
      const statements = statementsOf(id);
      const activity = statements.filter((st) => JSON.stringify(st.Resource).includes('ActivityTable'));
      expect(activity.length).toBeGreaterThan(0);
      for (const st of activity)
        expect(st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']).toEqual(['running#*']);
      const actions = statements.flatMap(actionsOf);
      expect(actions).toEqual(expect.arrayContaining(['sqs:SendMessage', 'sqs:ChangeMessageVisibility']));
      const env: Record<string, unknown> = s.stateless.toJSON().Resources[id].Properties.Environment.Variables;
      expect(env[name === 'agent' ? 'AGENT_QUEUE_URL' : 'DESIGN_QUEUE_URL']).toBeDefined();
    },
  );

  it('sweeper runs every minute with tasks read/write and both queues', () => {
    const id = logicalId(workers().sweeper);
    s.stateless.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [id, 'Arn'] } })],
    });
    const usageWrites = statementsOf(id).filter((st) => JSON.stringify(st.Resource).includes('UsageTable'));
    expect(usageWrites.flatMap(actionsOf)).toContain('dynamodb:UpdateItem');
    const sends = statementsOf(id).filter((st) => actionsOf(st).includes('sqs:SendMessage'));
    expect(sends.flatMap((st) => (Array.isArray(st.Resource) ? st.Resource : [st.Resource]))).toHaveLength(2);
  });

  it('the worker image is one container asset, staged (copied and hashed) but not built at synth', () => {
    const manifest = JSON.parse(
      readFileSync(join(s.assembly.directory, `${s.service.stateless.stackName}.assets.json`), 'utf8'),
    ) as { dockerImages: Record<string, { source: { directory: string; dockerFile: string; platform: string } }> };
    const images = Object.values(manifest.dockerImages);
    expect(images).toHaveLength(1);
    expect(images[0]?.source).toMatchObject({ dockerFile: 'functions/worker/Dockerfile', platform: 'linux/amd64' });
    // The .dockerignore whitelist keeps the context small: sources and lockfile, no node_modules.
    const context = readdirSync(join(s.assembly.directory, images[0]?.source.directory ?? ''));
    expect(context).toEqual(expect.arrayContaining(['lib', 'functions', 'package-lock.json']));
    expect(context).not.toContain('node_modules');
  });

  it('each DLQ has an alarm', () => {
    for (const q of Object.values(QUEUES)) {
      s.stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 1,
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::ImportValue': Match.stringLikeRegexp(`${q.id}Dlq`) } }],
        AlarmActions: Match.anyValue(),
      });
    }
  });
});

describe('cdk-nag', () => {
  it('AwsSolutionsChecks reports no unacknowledged errors', () => {
    const report = s.service.nag.validateScope(s.service.stateful.node.root);
    const errors = report.violations.filter((v) => v.severity === 'error');
    expect(errors.map((e) => `${e.ruleName}: ${e.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual(
      [],
    );
  });
});
