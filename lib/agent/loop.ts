import { generateText, type LanguageModel, type ModelMessage, type ToolCallPart, type ToolResultPart } from 'ai';
import type { KnowledgeIndex } from '../knowledge/index.js';
import type { HttpGet } from '../knowledge/recipes.js';
import { renderToolResult } from '../browser/tool.js';
import { runTool, type BrowserTool } from '../browser/tools/index.js';
import { TaskFailedError } from '../errors.js';
import { formatIssues } from '../validation.js';
import type { AgentBrowser } from './agent-browser.js';
import { observe } from './prompt.js';
import type { StepRecorder } from './recorder.js';
import type { Redactor } from './redact.js';
import { isPlainObject, SCHEMA_MISMATCH, structuredCandidate, type StructuredValidator } from './structured.js';
import { DONE_TOOL, DoneInput, type AgentToolbox } from './tools.js';
import type { UsageMeter } from './usage.js';

export interface AgentLoopOptions {
  model: LanguageModel;
  toolbox: AgentToolbox;
  browser: AgentBrowser;
  knowledge: KnowledgeIndex;
  /** Lookup recipes' GETs, guarded; the endpoints they reach count as visited. */
  http: HttpGet;
  system: string;
  /** The task, earlier turns and start notes: the first user message. */
  userText: string;
  maxSteps: number;
  /** Names every limit of the run, for the maxSteps failure. */
  limitsLabel: string;
  validator?: StructuredValidator;
  signal: AbortSignal;
  redactor: Redactor;
  recorder: StepRecorder;
  usage: UsageMeter;
  /** Refreshes the redactor with the browser's current cookie values. */
  refreshSecrets: () => Promise<void>;
}

export type AgentOutcome = { kind: 'done'; answer: string; data?: Record<string, unknown> } | { kind: 'cancelled' };

/** Identical consecutive actions on the same page that count as a loop. */
export const LOOP_REPEATS = 3;
const RESULT_MAX_CHARS = 8_000;
const OLD_RESULT_MAX_CHARS = 600;
const KEEP_FULL_RESULTS = 2;

const clip = (s: string, max: number): string =>
  s.length > max ? `${s.slice(0, max)}\n[cut at ${max} characters]` : s;
const firstLine = (s: string): string => s.split('\n').find((l) => l.trim()) ?? '';

/** Key order must not hide a repeat: {a,b} and {b,a} are the same action. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

function describeArgs(args: unknown): string {
  if (!isPlainObject(args)) return '';
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.join(' ').slice(0, 120);
}

/** Older tool results shrink so the context stays small over 25 steps. */
function shrinkOldResults(messages: ModelMessage[]): void {
  const toolMessages = messages.filter((m) => m.role === 'tool');
  for (const m of toolMessages.slice(0, -KEEP_FULL_RESULTS)) {
    if (m.role !== 'tool') continue;
    for (const part of m.content) {
      if (
        part.type === 'tool-result' &&
        part.output.type === 'text' &&
        part.output.value.length > OLD_RESULT_MAX_CHARS
      ) {
        part.output = { type: 'text', value: clip(part.output.value, OLD_RESULT_MAX_CHARS) };
      }
    }
  }
}

const textResult = (toolCallId: string, toolName: string, value: string): ToolResultPart => ({
  type: 'tool-result',
  toolCallId,
  toolName,
  output: { type: 'text', value },
});

type Call = Pick<ToolCallPart, 'toolCallId' | 'toolName' | 'input'>;

/**
 * The step loop: observe the page, ask the model, run its tool calls with the shared
 * browser tools, until `done`. The loop owns the budgets the runner cannot see: maxSteps,
 * loop detection, the schema repair round and cancellation between steps (learnt from the
 * recorder's progress write). The time budget arrives as `signal` (the runner aborts it),
 * which also cancels an in-flight model call.
 */
export class AgentLoop {
  private readonly messages: ModelMessage[];
  private repairing = false;
  private lastKey = '';
  private repeats = 0;

  constructor(private readonly o: AgentLoopOptions) {
    this.messages = [{ role: 'user', content: o.userText }];
  }

  /**
   * Every recorded step counts against maxSteps, the start page and sign-in included, so
   * totalSteps never exceeds it; no step starts once the budget is spent.
   */
  private assertStepLeft(): void {
    if (this.o.recorder.steps.length < this.o.maxSteps) return;
    const what = this.repairing ? 'before its repaired answer' : 'without calling done';
    throw new TaskFailedError(
      `Task did not finish within its budget: it used all ${this.o.maxSteps} steps ${what} (${this.o.limitsLabel})`,
    );
  }

  async run(): Promise<AgentOutcome> {
    for (;;) {
      this.o.signal.throwIfAborted();
      if (this.o.recorder.cancelRequested) return { kind: 'cancelled' };
      this.assertStepLeft();
      const calls = await this.askModel();
      if (calls.length === 0) continue;
      this.messages.push({ role: 'assistant', content: calls.map((c) => ({ type: 'tool-call' as const, ...c })) });
      const results: ToolResultPart[] = [];
      for (const call of calls) {
        this.assertStepLeft();
        if (call.toolName === DONE_TOOL) {
          const finished = await this.done(call, results);
          if (finished) return finished;
          continue;
        }
        if (this.repairing)
          throw new TaskFailedError(`${SCHEMA_MISMATCH}: the model did not answer in its repair round`);
        results.push(await this.runToolCall(call));
      }
      this.messages.push({ role: 'tool', content: results });
      shrinkOldResults(this.messages);
    }
  }

  /** One model turn on the latest observation; a reply without tool calls costs a step and a nudge. */
  private async askModel(): Promise<Call[]> {
    await this.o.refreshSecrets();
    const observation = this.o.redactor.redact(await observe(this.o.browser));
    const asked = performance.now();
    const reply = await generateText({
      model: this.o.model,
      system: this.o.system,
      messages: [...this.messages, { role: 'user', content: observation }],
      tools: this.o.toolbox.tools,
      // The repair round may only answer: more browsing would not fix the shape of the data.
      toolChoice: this.repairing ? { type: 'tool', toolName: DONE_TOOL } : 'required',
      abortSignal: this.o.signal,
      maxRetries: 2,
    });
    this.o.usage.add(reply.usage, performance.now() - asked);
    if (reply.toolCalls.length > 0)
      return reply.toolCalls.map((c) => ({ toolCallId: c.toolCallId, toolName: c.toolName, input: c.input }));
    await this.o.recorder.record('model', 'The model replied without calling a tool', false);
    this.messages.push({ role: 'assistant', content: reply.text || '(empty reply)' });
    this.messages.push({ role: 'user', content: 'Act through the tools; call done with the answer to finish.' });
    return [];
  }

  /** A `done` call: the outcome when it is acceptable, else a repair request (once) or the failure. */
  private async done(call: Call, results: ToolResultPart[]): Promise<AgentOutcome | undefined> {
    const { recorder, redactor, validator } = this.o;
    const args = DoneInput.safeParse(call.input);
    if (!args.success) {
      const why = formatIssues(args.error.issues, { all: true });
      await recorder.record('done', `Invalid done call: ${why}`, false);
      if (this.repairing)
        throw new TaskFailedError(`${SCHEMA_MISMATCH}: the repaired answer was not a valid done call (${why})`);
      results.push(textResult(call.toolCallId, call.toolName, `Invalid arguments for done: ${why}`));
      return undefined;
    }
    const answer = redactor.redact(args.data.answer);
    if (!validator) {
      await recorder.record('done', `Answer: ${answer}`, true);
      return { kind: 'done', answer, ...(args.data.data ? { data: redactor.redactValue(args.data.data) } : {}) };
    }
    // Redacted before validation: what is stored must be what was checked.
    const candidate = redactor.redactValue(structuredCandidate(args.data.answer, args.data.data));
    const check = isPlainObject(candidate)
      ? validator(candidate)
      : { ok: false, errors: ['(root) done.data must be a JSON object'] };
    if (check.ok && isPlainObject(candidate)) {
      await recorder.record('done', `Answer: ${answer} (structured output matches the schema)`, true);
      return { kind: 'done', answer, data: candidate };
    }
    const errors = check.errors.join('; ');
    if (this.repairing) {
      await recorder.record('done', `Repaired output still did not match the schema: ${errors}`, false);
      throw new TaskFailedError(`${SCHEMA_MISMATCH} after one repair attempt: ${errors}`);
    }
    this.repairing = true;
    await recorder.record('done', `Output did not match the schema (${errors}); asking for a repair`, false);
    results.push(
      textResult(
        call.toolCallId,
        call.toolName,
        `Your data does not match the schema: ${errors}. Call done again with data that conforms to the schema.`,
      ),
    );
    return undefined;
  }

  /** Stops the run when the same call repeats on the same page. */
  private async detectLoop(call: Call, tool: BrowserTool | undefined): Promise<void> {
    const key = `${call.toolName} ${stableJson(call.input)} @ ${this.o.browser.current?.page.url() ?? ''}`;
    this.repeats = key === this.lastKey ? this.repeats + 1 : 1;
    this.lastKey = key;
    if (this.repeats < LOOP_REPEATS) return;
    const what = `${tool?.name ?? call.toolName} ${describeArgs(call.input)}`.trim();
    await this.o.recorder.record(
      tool?.trace.type ?? call.toolName,
      `Stopped: ${what} repeated ${LOOP_REPEATS} times in a row`,
      false,
    );
    throw new TaskFailedError(
      `Task stopped: the agent repeated the same action (${what}) ${LOOP_REPEATS} times in a row without progress (loop detected)`,
    );
  }

  /** A browser tool call; a refused navigation ends the task before the model reads anything of it. */
  private async runToolCall(call: Call): Promise<ToolResultPart> {
    const { browser, recorder, redactor } = this.o;
    const tool = this.o.toolbox.resolve(call.toolName);
    await this.detectLoop(call, tool);
    if (!tool) {
      await recorder.record(call.toolName, `Unknown tool ${call.toolName}`, false);
      return textResult(call.toolCallId, call.toolName, `There is no tool named ${call.toolName}.`);
    }
    const response = await runTool(
      tool,
      { session: () => browser.session(), knowledge: this.o.knowledge, http: this.o.http },
      call.input,
    );
    this.o.signal.throwIfAborted();
    // A refused navigation ends the run here: nothing the page showed reaches the model or the trace.
    const refusal = await browser.refusal();
    if (refusal) {
      await recorder.record(tool.trace.type, refusal, false);
      throw new TaskFailedError(refusal);
    }
    const url = browser.current?.page.url() ?? '';
    if (url) recorder.visit(url);
    await this.o.refreshSecrets();
    const rendered = renderToolResult(response);
    const text = redactor.redact(rendered.text);
    const args = tool.input.safeParse(call.input);
    const message = rendered.isError
      ? `${tool.name} ${describeArgs(call.input)} failed: ${firstLine(text)}`
      : ((args.success ? tool.trace.message?.(args.data, { url }) : undefined) ?? firstLine(text));
    await recorder.record(tool.trace.type, message, !rendered.isError);
    return textResult(call.toolCallId, call.toolName, clip(text, RESULT_MAX_CHARS));
  }
}
