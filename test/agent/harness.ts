import type { SQSEvent } from 'aws-lambda';
import { KnowledgeIndex } from '../../lib/knowledge/index.js';
import { putCredentials } from '../../lib/credentials/use-cases.js';
import { agentJob, type AgentJobOptions } from '../../lib/agent/job.js';
import { PLATFORM_DOMAINS } from '../../lib/agent/credentials.js';
import type { WorkerDeps as Deps } from '../../lib/worker-deps.js';
import type { AgentRequest, TaskItem } from '../../lib/tasks/model.js';
import { inlineOffloaded } from '../../lib/tasks/result-store.js';
import { submitAgentTask } from '../../lib/tasks/use-cases.js';
import { createTaskHandler } from '../../lib/worker/run-task.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { uniqueId, useTestAws } from '../support/aws.js';
import type { Policy } from '../fixtures/agent/policies.js';
import { catalogueRoute } from '../fixtures/agent/site.js';
import { scriptedModel, type ScriptedModel } from '../fixtures/agent/scripted-model.js';

/**
 * The agent tier's world: the embedded emulators (real DynamoDB/S3 wire calls), the
 * catalogue fixture on loopback, and the real worker runner calling the agent job with a
 * scripted mock model. Tasks are submitted through the same use case as POST /v1/tasks.
 */
export const REDDIT_SECRET = 'rs-9f8e7d6c5b4a-secret-session-value';

export interface AgentWorld {
  site: FixtureServer;
  deps: Deps;
  /** Every request of the account page (reddit's stand-in), in order: whether it came signed in. */
  accountVisits: boolean[];
  run(opts: RunOptions): Promise<{ task: TaskItem; model: ScriptedModel }>;
  submit(opts: SubmitOptions): Promise<{ taskId: string; sessionId: string }>;
  /** Runs an already submitted task through the worker. */
  work(taskId: string, model: ScriptedModel, opts?: WorkOptions): Promise<TaskItem>;
  uploadRedditSession(businessId: string, endUserId: string): Promise<void>;
  stop(): Promise<void>;
}

export interface SubmitOptions {
  task: string;
  agent?: Partial<AgentRequest>;
  businessId?: string;
  endUserId?: string;
  sessionId?: string;
}

export interface WorkOptions {
  budgetMs?: number;
  /** Ports or settings of this run that differ from the world's (a network policy with the guard on). */
  deps?: Partial<Deps>;
  job?: Partial<AgentJobOptions>;
  /** Called while the job runs (cancellation tests). */
  during?: (taskId: string) => Promise<void>;
}

export interface RunOptions extends SubmitOptions, WorkOptions {
  policy: Policy;
  latencyMs?: number;
}

export async function startAgentWorld(): Promise<AgentWorld> {
  // A model provider is configured so POST /v1/tasks accepts tasks; the job runs the scripted model given to it.
  const aws = await useTestAws({ BTS_ALLOW_PRIVATE_NETWORK: 'true', BTS_MODEL_PROVIDER: 'openai-compatible' });
  const accountVisits: boolean[] = [];
  const site = await startFixtureServer({
    routes: [catalogueRoute({ expectedSession: REDDIT_SECRET, onAccount: (s) => accountVisits.push(s) })],
  });
  const knowledge = new KnowledgeIndex([]);
  const deps: Deps = { ...aws.deps, knowledge: async () => knowledge };

  const submit = async (o: SubmitOptions) => {
    const businessId = o.businessId ?? uniqueId('agent-biz');
    const agent: AgentRequest = { maxSteps: 25, includeHtmlDump: false, ...o.agent };
    const s = await submitAgentTask(
      deps,
      { businessId },
      { endUserId: o.endUserId ?? 'user-1', task: o.task, agent, ...(o.sessionId ? { sessionId: o.sessionId } : {}) },
    );
    return { taskId: s.taskId, sessionId: s.sessionId };
  };

  const work = async (taskId: string, model: ScriptedModel, o: WorkOptions = {}): Promise<TaskItem> => {
    const handler = createTaskHandler({
      kind: 'agent',
      cancelPollMs: 100,
      budgets: { agentBudgetMs: o.budgetMs ?? 60_000, designBudgetMs: 60_000, graceMs: 5_000 },
      deps: () => ({ ...deps, ...o.deps }),
      job: agentJob({
        model: () => ({ model: model.model, provider: 'scripted', modelId: 'scripted-policy' }),
        // reddit is played by the fixture's second origin (localhost); other platforms keep theirs.
        platformDomains: { ...PLATFORM_DOMAINS, reddit: ['localhost'] },
        ...o.job,
      }),
    });
    const event = {
      Records: [{ messageId: uniqueId('m'), body: JSON.stringify({ taskId, kind: 'agent' }) }],
    } as unknown as SQSEvent;
    const running = handler(event);
    if (o.during) await o.during(taskId);
    await running;
    const item = await deps.tasks.get(taskId);
    if (!item) throw new Error(`task ${taskId} vanished`);
    return inlineOffloaded(deps.results, item);
  };

  return {
    site,
    deps,
    accountVisits,
    submit,
    work,
    async run(o) {
      const model = scriptedModel(o.policy, o.latencyMs === undefined ? {} : { latencyMs: o.latencyMs });
      const { taskId } = await submit(o);
      return { task: await work(taskId, model, o), model };
    },
    async uploadRedditSession(businessId, endUserId) {
      await putCredentials(deps, { businessId }, { endUserId, values: { redditSession: REDDIT_SECRET } });
    },
    async stop() {
      await site.close();
      await aws.stop();
    },
  };
}
