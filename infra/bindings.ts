import { Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { ASSETS_BUCKET, type QueueDefinition, type TableDefinition } from '../lib/aws/resources.js';

/**
 * Binding a function to a resource is one call that both grants the IAM actions and sets
 * the environment variable naming the resource, so a function can never know a resource
 * it may not touch (or be allowed one it cannot find).
 *
 * Actions are listed explicitly instead of using the CDK `grant*` helpers: those add
 * wildcard actions (`kms:GenerateDataKey*`, `dynamodb:*` on indexes via `index/*`) and
 * Scan, which no handler needs.
 */

export type Access = 'read' | 'write';

const TABLE_ACTIONS: Record<Access, string[]> = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
  write: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
};

export interface BoundTable {
  table: ITable;
  definition: TableDefinition;
}

export interface TableGrantOptions {
  /**
   * The indexes a reader may query; all of the table's by default. An index is a view
   * across partitions (byStatus lists every business's tasks), so a function that reads
   * by key only is granted none.
   */
  indexes?: readonly string[];
  /** Partition-key patterns the function may touch (dynamodb:LeadingKeys), for tables shared by kinds of item. */
  leadingKeys?: readonly string[];
}

export function bindTable(
  fn: LambdaFunction,
  { table, definition }: BoundTable,
  access: Access,
  opts: TableGrantOptions = {},
): void {
  fn.addEnvironment(definition.envVar, table.tableName);
  const wanted = opts.indexes ?? definition.indexes.map((i) => i.indexName);
  for (const name of wanted) {
    if (!definition.indexes.some((i) => i.indexName === name)) throw new Error(`${definition.id} has no index ${name}`);
  }
  // Only reads query indexes; naming each index keeps the resource list wildcard-free.
  const indexArns = access === 'read' ? wanted.map((name) => `${table.tableArn}/index/${name}`) : [];
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: TABLE_ACTIONS[access],
      resources: [table.tableArn, ...indexArns],
      ...(opts.leadingKeys
        ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...opts.leadingKeys] } } }
        : {}),
    }),
  );
}

export interface BoundQueue {
  queue: IQueue;
  definition: QueueDefinition;
}

export function bindQueueSend(fn: LambdaFunction, { queue, definition }: BoundQueue): void {
  fn.addEnvironment(definition.envVar, queue.queueUrl);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
}

/**
 * Object key prefixes of the assets bucket. `results/` holds offloaded task results
 * (lib/tasks/result-store.ts); `assets/` holds extracted design assets; `sessions/` holds
 * the encrypted browser state of agent sessions (lib/agent/session-state.ts). A function
 * is granted objects under the prefixes it uses, never the whole bucket.
 */
export const ASSET_PREFIXES = { results: 'results/', assets: 'assets/', sessions: 'sessions/' } as const;
export type AssetPrefix = keyof typeof ASSET_PREFIXES;

/**
 * The asset bucket as another stack sees it. Its ARN travels through an export with a
 * stage-scoped name so the prefix grants below have a stable cdk-nag finding id.
 */
export interface BoundBucket {
  bucketName: string;
  arn: string;
  exportName: string;
}

export function bindBucket(fn: LambdaFunction, bucket: BoundBucket, access: Access, prefixes: AssetPrefix[]): void {
  fn.addEnvironment(ASSETS_BUCKET.envVar, bucket.bucketName);
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: access === 'read' ? ['s3:GetObject'] : ['s3:PutObject'],
      resources: prefixes.map((p) => `${bucket.arn}/${ASSET_PREFIXES[p]}*`),
    }),
  );
  Validations.of(fn).acknowledge(
    ...prefixes.map((p) => ({
      id: `AwsSolutions-IAM5[Resource::${bucket.exportName}/${ASSET_PREFIXES[p]}*]`,
      reason: `Object keys under ${ASSET_PREFIXES[p]} are per business and task and unknown in advance; the grant is one prefix, one action.`,
    })),
  );
}

/** The only encryption-context keys the service uses (lib/credentials/encryptor.ts kmsContext). */
export const ENCRYPTION_CONTEXT_KEYS = ['businessId', 'endUserId'] as const;

/**
 * The credentials key: put-credentials encrypts, the agent worker decrypts (and encrypts
 * its session state); nothing else. Encryption is envelope encryption, so "encrypt" is
 * `kms:GenerateDataKey` (KMS Encrypt takes at most 4096 bytes) and "decrypt" opens the
 * data key with `kms:Decrypt`.
 *
 * Every use must carry an encryption context of exactly {businessId, endUserId}, both
 * present. IAM can bind the keys but not their values: one role serves every task, and a
 * task's business is known only at run time, so a role cannot be limited to "the business
 * of the task it runs". What the condition does buy: no call without a tenant context (a
 * context-free ciphertext, or a key used for anything else, is refused by KMS), and KMS
 * CloudTrail entries name the business and end-user of every decrypt. Binding the values
 * would need a per-task session (sts:AssumeRole with session tags and a condition
 * `kms:EncryptionContext:businessId = ${aws:PrincipalTag/businessId}`); the worker could
 * still assume it with any tag, so that guards against our own bugs, not a compromised
 * worker.
 */
export function bindKey(fn: LambdaFunction, key: IKey, use: 'encrypt' | 'decrypt'): void {
  fn.addEnvironment('BTS_ENCRYPTOR', 'kms');
  fn.addEnvironment('KMS_KEY_ID', key.keyArn);
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: [use === 'encrypt' ? 'kms:GenerateDataKey' : 'kms:Decrypt'],
      resources: [key.keyArn],
      conditions: {
        'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...ENCRYPTION_CONTEXT_KEYS] },
        // ForAllValues holds for an empty set too: each key must also be present.
        Null: Object.fromEntries(ENCRYPTION_CONTEXT_KEYS.map((k) => [`kms:EncryptionContext:${k}`, 'false'])),
      },
    }),
  );
}

/** Dashboard tokens are verified offline against the pool's public JWKS: no IAM needed. */
export function bindDashboardAuth(fn: LambdaFunction, pool: IUserPool, client: IUserPoolClient): void {
  fn.addEnvironment('BTS_DASHBOARD_AUTH', 'cognito');
  fn.addEnvironment('COGNITO_USER_POOL_ID', pool.userPoolId);
  fn.addEnvironment('COGNITO_CLIENT_ID', client.userPoolClientId);
}
