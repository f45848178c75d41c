import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { StatefulStack } from './stateful-stack.js';
import { StatelessStack } from './stateless-stack.js';

export interface Service {
  stage: string;
  stateful: StatefulStack;
  stateless: StatelessStack;
  nag: AwsSolutionsChecks;
}

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

function context(app: App, key: string): string | undefined {
  const v: unknown = app.node.tryGetContext(key);
  return v === undefined || v === null || v === '' ? undefined : String(v);
}

function numberContext(app: App, key: string, fallback: number): number {
  const raw = context(app, key);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Context ${key} must be a positive integer, got ${raw}`);
  return n;
}

/**
 * Builds both stacks of one stage into `app`. Everything configurable comes from context
 * (`-c stage=prod`, ...), so two stages deploy side by side from the same checkout:
 * stack names carry the stage, physical names are generated (except the API-key table).
 */
export function createService(app: App): Service {
  const stage = context(app, 'stage') ?? 'dev';
  if (!STAGE_PATTERN.test(stage)) throw new Error(`Invalid stage "${stage}": lower-case letters, digits and dashes`);
  // Environment-agnostic unless the CLI knows the account: synth needs no credentials.
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const retainData =
    context(app, 'retainData') !== undefined ? context(app, 'retainData') === 'true' : stage === 'prod';

  const stateful = new StatefulStack(app, `Bts-${stage}-Stateful`, {
    env,
    stage,
    retainData,
    description: `Browser Task Service (${stage}): tables, bucket, key, queues, dashboard users`,
  });
  const stateless = new StatelessStack(app, `Bts-${stage}-Stateless`, {
    env,
    stage,
    data: stateful,
    description: `Browser Task Service (${stage}): HTTP API, functions, workers, alarms`,
    logLevel: context(app, 'logLevel') ?? 'INFO',
    throttle: {
      rateLimit: numberContext(app, 'apiRateLimit', 50),
      burstLimit: numberContext(app, 'apiBurstLimit', 100),
    },
    agentConcurrency: numberContext(app, 'agentConcurrency', 10),
    designConcurrency: numberContext(app, 'designConcurrency', 10),
    bedrockModel: context(app, 'bedrockModel'),
  });

  const nag = new AwsSolutionsChecks(app, { verbose: true });
  Validations.of(app).addPlugins(nag);
  return { stage, stateful, stateless, nag };
}
