import { resolve as resolvePath } from 'node:path';
import { KnowledgeIndex } from '../browser/knowledge.js';
import type { BrowserSession } from '../browser/session.js';
import { findTool, runTool } from '../browser/tools/index.js';
import { config } from '../config.js';
import { loadCredentials } from '../credentials/use-cases.js';
import { deps as defaultDeps, type Deps } from '../deps.js';
import { TaskCancelledError, TaskFailedError } from '../errors.js';
import { MAX_STEPS, type TaskItem } from '../tasks/model.js';
import { inlineOffloaded } from '../tasks/result-store.js';
import { formatLimit } from '../worker/budget.js';
import type { Resolver } from '../worker/network-guard.js';
import type { Job, JobOutput } from '../worker/run-task.js';
import { withAgentBrowser } from './browser.js';
import { injectCookies, PLATFORM_DOMAINS, platformCookies, targetPlatforms, type PlatformCookie, type PlatformDomains } from './credentials.js';
import { runAgentLoop } from './loop.js';
import { resolveModel, type ResolvedModel } from './model.js';
import { historyText, pickStart, siteNotes, systemPrompt, taskText } from './prompt.js';
import { StepRecorder } from './recorder.js';
import { Redactor } from './redact.js';
import { EncryptedSessionStateStore, withoutSecretCookies, type SessionStateStore } from './session-state.js';
import { compileSchema, type StructuredValidator } from './structured.js';
import { agentToolbox } from './tools.js';
import { UsageMeter } from './usage.js';

/**
 * The agent worker's job: everything around the step loop. It fails fast on what needs
 * no browser (no model configured, missing platform credentials, an invalid schema),
 * then opens the session's browser, signs in with the end-user's cookies, picks the
 * start, runs the loop and shapes the task record of SPEC §2.1.
 */
export interface AgentJobOptions {
  /** Tests inject a mock model; production builds one from configuration. */
  model?: () => ResolvedModel;
  /** Tests map a platform to a loopback fixture host; production uses PLATFORM_DOMAINS. */
  platformDomains?: PlatformDomains;
  knowledge?: () => Promise<KnowledgeIndex>;
  deps?: () => Deps;
  sessionState?: (d: Deps) => SessionStateStore;
  resolve?: Resolver;
}

/** Internal timings kept on the item (bench, support): where a run's time went. */
export interface AgentTimings extends Record<string, number> {
  setupMs: number;
  loopMs: number;
  modelMs: number;
  steps: number;
}

let knowledgeCache: Promise<KnowledgeIndex> | undefined;
/** The bundled index; the worker image copies data/ next to the handlers (cwd in Lambda). */
const defaultKnowledge = (): Promise<KnowledgeIndex> =>
  (knowledgeCache ??= KnowledgeIndex.load(resolvePath(process.cwd(), 'data/knowledgegraphindex')));

async function previousTurns(d: Deps, task: TaskItem): Promise<TaskItem[]> {
  const all = await d.tasks.listBySession(task.sessionId);
  const earlier = all.filter((t) => t.taskId !== task.taskId && t.sessionSort < task.sessionSort).sort((a, b) => a.sessionSort.localeCompare(b.sessionSort));
  return Promise.all(earlier.map((t) => (t.offloadedKey ? inlineOffloaded(d.results, t) : t)));
}

export function agentJob(opts: AgentJobOptions = {}): Job {
  return async ({ task, signal, budgetMs, log }) => {
    const request = task.agent;
    if (!request) throw new TaskFailedError('This task has no agent request to run');
    const cfg = config();
    const model = (opts.model ?? (() => resolveModel(cfg)))();
    const d = (opts.deps ?? defaultDeps)();
    const domains = opts.platformDomains ?? PLATFORM_DOMAINS;
    const setupStarted = performance.now();

    const redactor = new Redactor();
    const platforms = targetPlatforms(task.task, request.startUrl, domains);
    let cookies: PlatformCookie[] = [];
    if (platforms.length > 0) {
      cookies = platformCookies(platforms, await loadCredentials(d, task.businessId, task.endUserId), domains);
      for (const c of cookies) redactor.addFixed(c.value);
    }
    const validator: StructuredValidator | undefined = request.schema ? compileSchema(request.schema) : undefined;
    const maxSteps = Math.max(1, Math.min(request.maxSteps, MAX_STEPS));
    const [knowledge, history] = await Promise.all([(opts.knowledge ?? defaultKnowledge)(), previousTurns(d, task)]);
    const states = (opts.sessionState ?? ((x: Deps) => new EncryptedSessionStateStore(x.results, x.encryptor)))(d);
    const encCtx = { businessId: task.businessId, endUserId: task.endUserId };
    const saved = history.length > 0 ? await states.load(task.businessId, task.sessionId, encCtx) : undefined;

    const usage = new UsageMeter(model.provider, model.modelId);
    const recorder = new StepRecorder((p) => d.tasks.updateRunning(task.taskId, p, d.now()), redactor, usage);
    const limitsLabel = `runs are limited to ${maxSteps} steps and a ${formatLimit(budgetMs)} time limit`;

    return withAgentBrowser(
      {
        signal,
        allowPrivateNetwork: cfg.BTS_ALLOW_PRIVATE_NETWORK,
        recorder,
        ...(saved ? { storageState: saved.storageState } : {}),
        ...(opts.resolve ? { resolve: opts.resolve } : {}),
      },
      async ({ session, guard }) => {
        const refreshSecrets = async () => redactor.setCookieValues((await session.context.cookies().catch(() => [])).map((c) => c.value));
        // Cookies go in before the first navigation, so the very first request is signed in.
        await injectCookies(session.context, cookies);
        if (cookies.length > 0) await recorder.record('auth', `Signed in to ${platforms.join(', ')} with the end-user's saved cookies`, true);

        const notes: string[] = [];
        const past = historyText(history);
        if (past) notes.unshift(past);
        let start: { url: string; type: string; why: string } | undefined;
        if (request.startUrl) start = { url: request.startUrl, type: 'navigate', why: 'start URL' };
        else if (saved?.lastUrl) start = { url: saved.lastUrl, type: 'resume', why: 'where the previous turn ended' };
        else {
          const pick = pickStart(task.task, knowledge);
          if (pick.site) notes.push(siteNotes(pick.site));
          start = { url: pick.url, type: pick.via, why: pick.site ? `knowledge index: ${pick.site.name}` : 'web search' };
        }
        await guard.assertAllowed(start.url);
        await openStart(session, start, recorder, redactor);
        if (guard.refusal) throw new TaskFailedError(guard.refusal);
        const setupMs = performance.now() - setupStarted;

        const loopStarted = performance.now();
        const outcome = await runAgentLoop({
          model: model.model,
          toolbox: agentToolbox(),
          session,
          knowledge,
          system: systemPrompt({ ...(request.schema ? { schema: request.schema } : {}), maxSteps, budgetLabel: formatLimit(budgetMs) }),
          userText: taskText(task.task, notes),
          maxSteps,
          limitsLabel,
          ...(validator ? { validator } : {}),
          signal,
          redactor,
          recorder,
          usage,
          isCancelled: async () => (await d.tasks.get(task.taskId))?.cancelRequested === true,
          refreshSecrets,
        });
        if (outcome.kind === 'cancelled') {
          await recorder.record('cancelled', 'Cancelled on request; stopped before the next step', false);
          log.info('agent run cancelled', { steps: recorder.steps.length });
          throw new TaskCancelledError();
        }
        if (guard.refusal) throw new TaskFailedError(guard.refusal);
        const loopMs = performance.now() - loopStarted;

        await refreshSecrets();
        const output: JobOutput = { ...recorder.progress() };
        if (validator && outcome.data) {
          output.result = outcome.data;
          output.structured_content = outcome.data;
        } else output.result = outcome.answer;
        if (request.includeHtmlDump) output.html_dump = redactor.redact(await session.page.content());
        const u = usage.snapshot();
        const timings: AgentTimings = { setupMs: Math.round(setupMs), loopMs: Math.round(loopMs), modelMs: u.modelMs, steps: recorder.steps.length };
        output.agentTimings = timings;

        await saveState(states, session, redactor, task, encCtx).catch((err: unknown) =>
          // A lost browser state costs the next turn a fresh start, not this turn its result.
          log.warn('could not save the session browser state', { error: (err as Error).message }),
        );
        log.info('agent run done', { steps: recorder.steps.length, modelCalls: u.modelCalls, totalTokens: u.totalTokens });
        return output;
      },
    );
  };
}

async function openStart(session: BrowserSession, start: { url: string; type: string; why: string }, recorder: StepRecorder, redactor: Redactor): Promise<void> {
  const navigate = findTool('navigate');
  if (!navigate) throw new Error('The navigate tool is missing from the browser tool layer');
  const res = await runTool(navigate, { session, knowledge: new KnowledgeIndex([]) }, { url: start.url });
  recorder.visit(session.page.url());
  const first = redactor.redact(res.toText()).split('\n')[0] ?? '';
  // A start page that fails to load is not fatal: the model sees about:blank and may navigate elsewhere.
  await recorder.record(start.type, `${first} (${start.why})`, !res.isError);
}

async function saveState(
  states: SessionStateStore,
  session: BrowserSession,
  redactor: Redactor,
  task: TaskItem,
  encCtx: { businessId: string; endUserId: string },
): Promise<void> {
  const storageState = withoutSecretCookies(await session.context.storageState(), (v) => redactor.isSecret(v));
  const lastUrl = session.page.url();
  await states.save(task.businessId, task.sessionId, encCtx, { storageState, ...(/^https?:/.test(lastUrl) ? { lastUrl } : {}) });
}
