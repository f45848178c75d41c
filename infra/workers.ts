import { Duration, Size, Validations } from 'aws-cdk-lib';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, DockerImageCode, DockerImageFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ACTIVITY_PREFIXES, type QueueDefinition } from '../lib/aws/resources.js';
import { bindBucket, bindKey, bindQueueSend, bindTable, type BoundQueue } from './bindings.js';
import { PROJECT_ROOT } from './node-function.js';
import type { StatefulStack } from './stateful-stack.js';

export interface WorkersProps {
  data: StatefulStack;
  environment: Record<string, string>;
  /** Upper bound of concurrent runs per queue (Lambda's SQS maxConcurrency, 2..1000). */
  agentConcurrency: number;
  designConcurrency: number;
  /** Bedrock model id or inference profile the agent may invoke; undefined = any. */
  bedrockModel?: string;
}

/** The agent worker's model provider; the create-task function is told it too, to refuse tasks when it is unset. */
export const AGENT_MODEL_PROVIDER = 'bedrock';

/**
 * Chromium needs room: the brotli packs unpack to ~300 MB in /tmp, plus downloaded
 * assets and screenshots. 2 GiB leaves headroom for a warm container's reuse.
 */
const CHROMIUM_EPHEMERAL = Size.mebibytes(2048);

/**
 * The container-image workers. One image (functions/worker/Dockerfile) serves all three
 * handlers through its CMD. At synth time CDK only copies and hashes the build context;
 * `docker build` runs at deploy (cdk-assets), so synth needs no Docker.
 *
 * x86_64: the deploying machine is usually x86, where an arm64 image would need emulation
 * to build; one image for all three functions keeps one architecture.
 */
export class Workers extends Construct {
  readonly agent: DockerImageFunction;
  readonly design: DockerImageFunction;
  readonly sweeper: DockerImageFunction;

  private readonly data: StatefulStack;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    const { data } = props;
    this.data = data;
    const t = data.tables;

    this.agent = this.worker('Agent', 'agent.handler', data.queues.AgentTasks.definition, {
      memorySize: 3008,
      ephemeral: CHROMIUM_EPHEMERAL,
      environment: {
        ...props.environment,
        BTS_MODEL_PROVIDER: AGENT_MODEL_PROVIDER,
        ...(props.bedrockModel ? { BTS_MODEL: props.bedrockModel } : {}),
      },
    });
    // Reads its task and the session's earlier turns (bySession); never byStatus, which
    // would list every business's tasks. Sessions are written by the API only.
    bindTable(this.agent, t.Tasks, 'read', { indexes: ['bySession'] });
    bindTable(this.agent, t.Tasks, 'write');
    bindTable(this.agent, t.EndUsers, 'read');
    // Decrypts end-users' cookies; encrypts and decrypts the session's saved browser state.
    bindKey(this.agent, data.credentialsKey, 'decrypt');
    bindKey(this.agent, data.credentialsKey, 'encrypt');
    bindBucket(this.agent, data.assetsBinding, 'write', ['results', 'sessions']);
    bindBucket(this.agent, data.assetsBinding, 'read', ['sessions']);
    this.consume(this.agent, data.queues.AgentTasks, props.agentConcurrency);
    this.scheduling(this.agent, data.queues.AgentTasks);
    this.allowBedrock(props.bedrockModel);

    this.design = this.worker('Design', 'design.handler', data.queues.DesignTasks.definition, {
      memorySize: 3008,
      ephemeral: CHROMIUM_EPHEMERAL,
      environment: props.environment,
    });
    bindTable(this.design, t.Tasks, 'read', { indexes: [] });
    bindTable(this.design, t.Tasks, 'write');
    bindBucket(this.design, data.assetsBinding, 'write', ['results', 'assets']);
    // Download URLs in the result are presigned by the worker's own credentials.
    bindBucket(this.design, data.assetsBinding, 'read', ['assets']);
    this.consume(this.design, data.queues.DesignTasks, props.designConcurrency);
    this.scheduling(this.design, data.queues.DesignTasks);

    // The sweeper fails stuck `running` tasks and re-enqueues lost `pending` ones.
    this.sweeper = this.worker('Sweeper', 'sweeper.handler', undefined, {
      memorySize: 512,
      timeout: Duration.seconds(60),
      environment: props.environment,
    });
    bindTable(this.sweeper, t.Tasks, 'read');
    bindTable(this.sweeper, t.Tasks, 'write');
    // Refunds the quota unit of a task it abandons (it never ran).
    bindTable(this.sweeper, t.Usage, 'write');
    bindQueueSend(this.sweeper, data.queues.AgentTasks);
    bindQueueSend(this.sweeper, data.queues.DesignTasks);
    new Rule(this, 'SweepSchedule', {
      description: 'Runs the task sweeper every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      // No retries: the next run a minute later does the same work.
      targets: [new LambdaTarget(this.sweeper, { retryAttempts: 0 })],
    });
  }

  private worker(
    id: string,
    cmd: string,
    queue: QueueDefinition | undefined,
    opts: { memorySize: number; ephemeral?: Size; timeout?: Duration; environment: Record<string, string> },
  ): DockerImageFunction {
    return new DockerImageFunction(this, id, {
      code: DockerImageCode.fromImageAsset(PROJECT_ROOT, {
        file: 'functions/worker/Dockerfile',
        cmd: [cmd],
        platform: Platform.LINUX_AMD64,
      }),
      architecture: Architecture.X86_64,
      memorySize: opts.memorySize,
      ephemeralStorageSize: opts.ephemeral,
      // The queue's visibility timeout is derived from this same number (6x).
      timeout: queue ? Duration.seconds(queue.workerTimeoutSeconds) : (opts.timeout ?? Duration.seconds(60)),
      logGroup: new LogGroup(this, `${id}Logs`, { retention: RetentionDays.ONE_MONTH }),
      environment: opts.environment,
    });
  }

  private consume(fn: DockerImageFunction, { queue }: BoundQueue, maxConcurrency: number): void {
    fn.addEventSource(
      new SqsEventSource(queue, {
        // One task per invocation: a browser run owns the whole sandbox, and a failure
        // redelivers exactly that task (reportBatchItemFailures keeps it precise).
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency,
      }),
    );
  }

  /**
   * Fair scheduling and retries: running slots per business in the Activity table (only
   * `running#` items), and the worker's own queue to defer a task over its business's cap
   * (SendMessage with a delay). The event source's consume grant already covers
   * ChangeMessageVisibility, the short backoff of a transient failure.
   */
  private scheduling(fn: DockerImageFunction, queue: BoundQueue): void {
    const { Activity } = this.data.tables;
    bindTable(fn, Activity, 'read', { leadingKeys: [`${ACTIVITY_PREFIXES.running}*`] });
    bindTable(fn, Activity, 'write', { leadingKeys: [`${ACTIVITY_PREFIXES.running}*`] });
    bindQueueSend(fn, queue);
  }

  private allowBedrock(model: string | undefined): void {
    const foundation = model
      ? `arn:aws:bedrock:*::foundation-model/${model.replace(/^[a-z]{2}\./, '')}`
      : 'arn:aws:bedrock:*::foundation-model/*';
    const profiles = model
      ? `arn:aws:bedrock:*:*:inference-profile/${model}`
      : 'arn:aws:bedrock:*:*:inference-profile/*';
    this.agent.addToRolePolicy(
      new PolicyStatement({
        actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
        resources: [foundation, profiles],
      }),
    );
    const reason =
      'Bedrock models are not data resources: the agent may call the configured model (or any model when none is pinned with -c bedrockModel=...), and cross-region inference profiles route to any region.';
    Validations.of(this.agent).acknowledge(
      ...[foundation, profiles]
        .filter((r) => r.includes('*'))
        .map((r) => ({ id: `AwsSolutions-IAM5[Resource::${r}]`, reason })),
    );
  }
}
