import type { BrowserLauncher } from '../browser/chromium.js';
import type { KnowledgeIndex } from '../knowledge/index.js';
import { guardedTextGet } from '../browser/network/fetch.js';
import { checkUrl, type NetworkPolicy } from '../browser/network/guard.js';
import { describeSite } from '../knowledge/describe.js';
import type { HttpGet } from '../knowledge/recipes.js';
import { renderToolResult } from '../browser/tool.js';
import { findTool, runTool } from '../browser/tools/index.js';
import type { Encryptor } from '../credentials/encryptor.js';
import type { EndUserRepository } from '../credentials/end-user-repository.js';
import { loadCredentials } from '../credentials/use-cases.js';
import { TaskCancelledError, TaskFailedError } from '../errors.js';
import { MAX_STEPS, type AgentRequest, type TaskItem } from '../tasks/model.js';
import { inlineOffloaded, type ResultStore } from '../tasks/result-store.js';
import type { TaskRepository } from '../tasks/task-repository.js';
import { formatLimit } from '../worker/budget.js';
import type { Job, JobContext, JobOutput } from '../worker/job.js';
import { AgentBrowser } from './agent-browser.js';
import {
  onPlatformDomain,
  PLATFORM_DOMAINS,
  platformCookies,
  targetPlatforms,
  type PlatformCookie,
  type PlatformDomains,
} from './credentials.js';
import { runLookupTask } from './lookup-task.js';
import { AgentLoop, type AgentOutcome } from './loop.js';
import { resolveModel, type ModelConfig, type ResolvedModel } from './model.js';
import { historyText, pickStart, siteNotes, systemPrompt, taskText } from './prompt.js';
import { StepRecorder } from './recorder.js';
import { Redactor } from './redact.js';
import {
  EncryptedSessionStateStore,
  withoutPlatformCookies,
  type SessionBrowserState,
  type SessionStateStore,
} from './session-state.js';
import { compileSchema, type StructuredValidator } from './structured.js';
import { agentToolbox } from './tools.js';
import { UsageMeter } from './usage.js';

/** What an agent run needs besides the runner's own deps. */
export interface AgentDeps {
  tasks: TaskRepository;
  results: ResultStore;
  endUsers: EndUserRepository;
  encryptor: Encryptor;
  browsers: BrowserLauncher;
  network: NetworkPolicy;
  knowledge: () => Promise<KnowledgeIndex>;
  config: ModelConfig;
  now: () => Date;
}

/** Seams for tests: a scripted model, a fixture host standing in for a platform, a state store. */
export interface AgentJobOptions {
  model?: (cfg: ModelConfig) => ResolvedModel;
  platformDomains?: PlatformDomains;
  sessionState?: (d: AgentDeps) => SessionStateStore;
}

/** Internal timings kept on the item (bench, support): where a run's time went. */
export interface AgentTimings extends Record<string, number> {
  setupMs: number;
  loopMs: number;
  modelMs: number;
  steps: number;
}

/** Everything decided before a browser is needed; building it fails fast on what no browser could fix. */
interface RunPlan {
  task: TaskItem;
  request: AgentRequest;
  model: ResolvedModel;
  redactor: Redactor;
  platforms: string[];
  cookies: PlatformCookie[];
  domains: PlatformDomains;
  validator?: StructuredValidator;
  maxSteps: number;
  knowledge: KnowledgeIndex;
  history: TaskItem[];
  saved?: SessionBrowserState;
  states: SessionStateStore;
  usage: UsageMeter;
  recorder: StepRecorder;
  /** Lookup recipes' GETs under the guard; endpoints that answer join `visitedUrls`. */
  http: HttpGet;
  setupStarted: number;
}

const encryptionContext = (t: TaskItem) => ({ businessId: t.businessId, endUserId: t.endUserId });

async function previousTurns(d: AgentDeps, task: TaskItem): Promise<TaskItem[]> {
  const all = await d.tasks.listBySession(task.sessionId);
  const earlier = all
    .filter((t) => t.taskId !== task.taskId && t.sessionSort < task.sessionSort)
    .sort((a, b) => a.sessionSort.localeCompare(b.sessionSort));
  return Promise.all(earlier.map((t) => (t.offloadedKey ? inlineOffloaded(d.results, t) : t)));
}

/** No model configured, missing platform credentials, an invalid schema: each fails before any browser work. */
async function prepareRun({ task, deps, signal }: JobContext<AgentDeps>, opts: AgentJobOptions): Promise<RunPlan> {
  const request = task.agent;
  if (!request) throw new TaskFailedError('This task has no agent request to run');
  const setupStarted = performance.now();
  const model = (opts.model ?? resolveModel)(deps.config);
  const domains = opts.platformDomains ?? PLATFORM_DOMAINS;
  const redactor = new Redactor();
  const validator = request.schema ? compileSchema(request.schema) : undefined;
  const [knowledge, history] = await Promise.all([deps.knowledge(), previousTurns(deps, task)]);
  const states = (opts.sessionState ?? ((d: AgentDeps) => new EncryptedSessionStateStore(d.results, d.encryptor)))(
    deps,
  );
  const saved =
    history.length > 0 ? await states.load(task.businessId, task.sessionId, encryptionContext(task)) : undefined;
  // Where the run will be decides the platform too: a follow-up turn resumes on the platform's page.
  const platforms = targetPlatforms(task.task, request.startUrl ?? saved?.lastUrl, domains);
  const cookies =
    platforms.length > 0
      ? platformCookies(platforms, await loadCredentials(deps, task.businessId, task.endUserId), domains)
      : [];
  for (const c of cookies) redactor.addFixed(c.value);
  const usage = new UsageMeter(model.provider, model.modelId);
  const recorder = new StepRecorder((p) => deps.tasks.updateRunning(task.taskId, p, deps.now()), redactor, usage);
  return {
    task,
    request,
    model,
    redactor,
    platforms,
    cookies,
    domains,
    ...(validator ? { validator } : {}),
    maxSteps: Math.max(1, Math.min(request.maxSteps, MAX_STEPS)),
    knowledge,
    history,
    ...(saved ? { saved } : {}),
    states,
    usage,
    recorder,
    http: guardedTextGet(deps.network, { onFetched: (url) => recorder.visit(url), signal }),
    setupStarted,
  };
}

/** Opens `url` through the navigate tool (so the browser starts), recording the step as `type`. */
async function navigateAtStart(
  plan: RunPlan,
  browser: AgentBrowser,
  network: NetworkPolicy,
  url: string,
  type: string,
  why: string,
): Promise<void> {
  const verdict = await checkUrl(network, url);
  // Checked up front so a refused start fails with the guard's sentence, not a net:: code.
  if (!verdict.allowed) throw new TaskFailedError(verdict.reason);
  const navigate = findTool('navigate');
  if (!navigate) throw new Error('The navigate tool is missing from the browser tool layer');
  const res = renderToolResult(
    await runTool(navigate, { session: () => browser.session(), knowledge: plan.knowledge, http: plan.http }, { url }),
  );
  const refusal = await browser.refusal();
  if (refusal) throw new TaskFailedError(refusal);
  const first = plan.redactor.redact(res.text).split('\n')[0] ?? '';
  // A start page that fails to load is not fatal: the model sees about:blank and may navigate elsewhere.
  await plan.recorder.record(type, `${first} (${why})`, !res.isError);
}

const FAST_PATH_NOTE =
  'No page is open: this site has lookups that answer from its public API. Call `lookup` with one of the operations above, then `done`. ' +
  'Open pages with navigate only if no operation can answer the task.';

/** Where the run begins, and the notes the model gets about it (earlier turns, site knowledge). */
async function begin(plan: RunPlan, browser: AgentBrowser, network: NetworkPolicy): Promise<string[]> {
  if (plan.cookies.length > 0) {
    await plan.recorder.record(
      'auth',
      `Signed in to ${plan.platforms.join(', ')} with the end-user's saved cookies`,
      true,
    );
  }
  const notes: string[] = [];
  const past = historyText(plan.history);
  if (past) notes.push(past);
  if (plan.request.startUrl) {
    await navigateAtStart(plan, browser, network, plan.request.startUrl, 'navigate', 'start URL');
  } else if (plan.saved?.lastUrl) {
    await navigateAtStart(plan, browser, network, plan.saved.lastUrl, 'resume', 'where the previous turn ended');
  } else {
    const pick = pickStart(plan.task.task, plan.knowledge);
    if (pick.site && pick.site.lookups.length > 0) {
      // The fast path: the site answers from public APIs, so no browser starts unless the model asks for a page.
      notes.push(describeSite(pick.site), FAST_PATH_NOTE);
      const ops = pick.site.lookups.map((op) => op.name).join(', ');
      await plan.recorder.record(
        'fast_path',
        `Knowledge index: ${pick.site.name} answers without a browser (lookups: ${ops})`,
        true,
      );
      return notes;
    }
    if (pick.site) notes.push(siteNotes(pick.site));
    await navigateAtStart(
      plan,
      browser,
      network,
      pick.url,
      pick.via,
      pick.site ? `knowledge index: ${pick.site.name}` : 'web search',
    );
  }
  return notes;
}

/** Tells the redactor the platform cookies the browser holds now (platforms rotate them). */
async function refreshSecrets(plan: RunPlan, browser: AgentBrowser): Promise<void> {
  const session = browser.current;
  if (!session) return;
  const cookies = await session.context.cookies().catch(() => []);
  plan.redactor.setPlatformCookieValues(
    cookies.filter((c) => onPlatformDomain(c.domain, plan.domains)).map((c) => c.value),
  );
}

/** The task record's result fields, the session's browser state for the next turn, and the timings. */
async function finishRun(
  plan: RunPlan,
  browser: AgentBrowser,
  outcome: AgentOutcome,
  loopMs: number,
  setupMs: number,
  ctx: JobContext<AgentDeps>,
): Promise<JobOutput> {
  const { recorder, redactor, task } = plan;
  if (outcome.kind === 'cancelled') {
    await recorder.record('cancelled', 'Cancelled on request; stopped before the next step', false);
    ctx.log.info('agent run cancelled', { steps: recorder.steps.length });
    throw new TaskCancelledError();
  }
  const refusal = await browser.refusal();
  if (refusal) throw new TaskFailedError(refusal);
  const session = browser.current;
  await refreshSecrets(plan, browser);
  const output: JobOutput = { ...recorder.progress() };
  if (plan.validator && outcome.data) {
    output.result = outcome.data;
    output.structured_content = outcome.data;
  } else output.result = outcome.answer;
  // A run answered without opening a page has no final page: its dump is empty.
  if (plan.request.includeHtmlDump) output.html_dump = session ? redactor.redact(await session.page.content()) : '';
  const u = plan.usage.snapshot();
  const timings: AgentTimings = {
    setupMs: Math.round(setupMs),
    loopMs: Math.round(loopMs),
    modelMs: u.modelMs,
    steps: recorder.steps.length,
  };
  output.agentTimings = timings;
  if (session) {
    const storageState = withoutPlatformCookies(await session.context.storageState(), (d) =>
      onPlatformDomain(d, plan.domains),
    );
    const lastUrl = session.page.url();
    await plan.states
      .save(task.businessId, task.sessionId, encryptionContext(task), {
        storageState,
        ...(/^https?:/.test(lastUrl) ? { lastUrl } : {}),
      })
      // A lost browser state costs the next turn a fresh start, not this turn its result.
      .catch((err: unknown) =>
        ctx.log.warn('could not save the session browser state', { error: (err as Error).message }),
      );
  }
  ctx.log.info('agent run done', {
    steps: recorder.steps.length,
    modelCalls: u.modelCalls,
    totalTokens: u.totalTokens,
  });
  return output;
}

/**
 * The agent worker's job: prepare (model, credentials, schema, history), begin (start
 * page or knowledge notes), run the step loop, and shape the task record of SPEC §2.1.
 */
export function agentJob(opts: AgentJobOptions = {}): Job<AgentDeps> {
  return async (ctx) => {
    // A task that names a recipe runs it directly: no model, no browser.
    if (ctx.task.agent?.lookup) return runLookupTask(ctx, ctx.task.agent.lookup);
    const plan = await prepareRun(ctx, opts);
    const { deps, signal, budgetMs } = ctx;
    const browser = new AgentBrowser({
      launcher: deps.browsers,
      tenant: ctx.task.businessId,
      network: deps.network,
      signal,
      cookies: plan.cookies,
      recorder: plan.recorder,
      ...(plan.saved ? { storageState: plan.saved.storageState } : {}),
    });
    try {
      const notes = await begin(plan, browser, deps.network);
      const setupMs = performance.now() - plan.setupStarted;
      const loopStarted = performance.now();
      const outcome = await new AgentLoop({
        model: plan.model.model,
        toolbox: agentToolbox(),
        browser,
        knowledge: plan.knowledge,
        http: plan.http,
        system: systemPrompt({
          ...(plan.request.schema ? { schema: plan.request.schema } : {}),
          maxSteps: plan.maxSteps,
          budgetLabel: formatLimit(budgetMs),
        }),
        userText: taskText(plan.task.task, notes),
        maxSteps: plan.maxSteps,
        limitsLabel: `runs are limited to ${plan.maxSteps} steps and a ${formatLimit(budgetMs)} time limit`,
        ...(plan.validator ? { validator: plan.validator } : {}),
        signal,
        redactor: plan.redactor,
        recorder: plan.recorder,
        usage: plan.usage,
        refreshSecrets: () => refreshSecrets(plan, browser),
      }).run();
      return await finishRun(plan, browser, outcome, performance.now() - loopStarted, setupMs, ctx);
    } finally {
      await browser.close();
    }
  };
}
