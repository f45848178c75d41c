import { generateText, type LanguageModel, type ModelMessage, type ToolResultPart } from 'ai';
import type { KnowledgeIndex } from '../browser/knowledge.js';
import type { BrowserSession } from '../browser/session.js';
import { runTool } from '../browser/tools/index.js';
import { TaskFailedError } from '../errors.js';
import { observe } from './prompt.js';
import type { StepRecorder } from './recorder.js';
import type { Redactor } from './redact.js';
import { isPlainObject, SCHEMA_MISMATCH, structuredCandidate, type StructuredValidator } from './structured.js';
import { DONE_TOOL, DoneInput, stepType, type AgentToolbox } from './tools.js';
import type { UsageMeter } from './usage.js';

/**
 * The step loop: observe the page, ask the model, run its tool calls with the shared
 * browser tools, until `done`. The loop owns the budgets the runner cannot see: maxSteps,
 * loop detection, the schema repair round and cancellation between steps. The time budget
 * arrives as `signal` (the runner aborts it), which also cancels an in-flight model call.
 */
export interface AgentLoopOptions {
  model: LanguageModel;
  toolbox: AgentToolbox;
  session: BrowserSession;
  knowledge: KnowledgeIndex;
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
  isCancelled: () => Promise<boolean>;
  /** Refreshes the redactor with the browser's current cookie values. */
  refreshSecrets: () => Promise<void>;
}

export type AgentOutcome = { kind: 'done'; answer: string; data?: Record<string, unknown> } | { kind: 'cancelled' };

/** Identical consecutive actions on the same page that count as a loop. */
export const LOOP_REPEATS = 3;
const RESULT_MAX_CHARS = 8_000;
const OLD_RESULT_MAX_CHARS = 600;
const KEEP_FULL_RESULTS = 2;

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max)}\n[cut at ${max} characters]` : s);
const firstLine = (s: string): string => s.split('\n').find((l) => l.trim()) ?? '';

/** Key order must not hide a repeat: {a,b} and {b,a} are the same action. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

function describeArgs(args: unknown): string {
  if (!isPlainObject(args)) return '';
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.join(' ').slice(0, 120);
}

function stepMessage(tool: string, args: unknown, text: string, isError: boolean, url: string): string {
  if (isError) return `${tool} ${describeArgs(args)} failed: ${firstLine(text)}`;
  switch (tool) {
    case 'content.get_markdown':
      return `Read ${url} as Markdown`;
    case 'extract.page_summary':
      return `Summarised ${url}`;
    case 'extract':
      return `Extracted structured data from ${url}`;
    case 'snapshot':
      return `Took a snapshot of ${url}`;
    case 'knowledge':
      return `Looked up site knowledge: ${describeArgs(args)}`;
    default:
      return firstLine(text);
  }
}

/** Older tool results shrink so the context stays small over 25 steps. */
function shrinkOldResults(messages: ModelMessage[]): void {
  const toolMessages = messages.filter((m) => m.role === 'tool');
  for (const m of toolMessages.slice(0, -KEEP_FULL_RESULTS)) {
    if (m.role !== 'tool') continue;
    for (const part of m.content) {
      if (part.type === 'tool-result' && part.output.type === 'text' && part.output.value.length > OLD_RESULT_MAX_CHARS) {
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

export async function runAgentLoop(o: AgentLoopOptions): Promise<AgentOutcome> {
  const messages: ModelMessage[] = [{ role: 'user', content: o.userText }];
  let actions = 0;
  let repairing = false;
  let lastKey = '';
  let repeats = 0;

  for (;;) {
    o.signal.throwIfAborted();
    if (await o.isCancelled()) return { kind: 'cancelled' };
    if (actions >= o.maxSteps && !repairing) {
      throw new TaskFailedError(`Task did not finish within its budget: it used all ${o.maxSteps} steps without calling done (${o.limitsLabel})`);
    }
    await o.refreshSecrets();
    const observation = o.redactor.redact(await observe(o.session));
    const asked = performance.now();
    const reply = await generateText({
      model: o.model,
      system: o.system,
      messages: [...messages, { role: 'user', content: observation }],
      tools: o.toolbox.tools,
      // The repair round may only answer: more browsing would not fix the shape of the data.
      toolChoice: repairing ? { type: 'tool', toolName: DONE_TOOL } : 'required',
      abortSignal: o.signal,
      maxRetries: 2,
    });
    o.usage.add(reply.usage, performance.now() - asked);

    if (reply.toolCalls.length === 0) {
      actions += 1;
      await o.recorder.record('model', 'The model replied without calling a tool', false);
      messages.push({ role: 'assistant', content: reply.text || '(empty reply)' });
      messages.push({ role: 'user', content: 'Act through the tools; call done with the answer to finish.' });
      continue;
    }
    messages.push({
      role: 'assistant',
      content: reply.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: c.input })),
    });
    const results: ToolResultPart[] = [];

    for (const call of reply.toolCalls) {
      actions += 1;
      if (call.toolName === DONE_TOOL) {
        const args = DoneInput.safeParse(call.input);
        if (!args.success) {
          const why = args.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
          await o.recorder.record('done', `Invalid done call: ${why}`, false);
          if (repairing) throw new TaskFailedError(`${SCHEMA_MISMATCH}: the repaired answer was not a valid done call (${why})`);
          results.push(textResult(call.toolCallId, call.toolName, `Invalid arguments for done: ${why}`));
          continue;
        }
        const answer = o.redactor.redact(args.data.answer);
        if (!o.validator) {
          await o.recorder.record('done', `Answer: ${answer}`, true);
          return { kind: 'done', answer, ...(args.data.data ? { data: o.redactor.redactValue(args.data.data) } : {}) };
        }
        // Redacted before validation: what is stored must be what was checked.
        const candidate = o.redactor.redactValue(structuredCandidate(args.data.answer, args.data.data));
        const check = isPlainObject(candidate) ? o.validator(candidate) : { ok: false, errors: ['(root) done.data must be a JSON object'] };
        if (check.ok && isPlainObject(candidate)) {
          await o.recorder.record('done', `Answer: ${answer} (structured output matches the schema)`, true);
          return { kind: 'done', answer, data: candidate };
        }
        const errors = check.errors.join('; ');
        if (repairing) {
          await o.recorder.record('done', `Repaired output still did not match the schema: ${errors}`, false);
          throw new TaskFailedError(`${SCHEMA_MISMATCH} after one repair attempt: ${errors}`);
        }
        repairing = true;
        await o.recorder.record('done', `Output did not match the schema (${errors}); asking for a repair`, false);
        results.push(textResult(call.toolCallId, call.toolName, `Your data does not match the schema: ${errors}. Call done again with data that conforms to the schema.`));
        continue;
      }
      if (repairing) throw new TaskFailedError(`${SCHEMA_MISMATCH}: the model did not answer in its repair round`);

      const tool = o.toolbox.resolve(call.toolName);
      const urlBefore = o.session.page.url();
      const key = `${call.toolName} ${stableJson(call.input)} @ ${urlBefore}`;
      repeats = key === lastKey ? repeats + 1 : 1;
      lastKey = key;
      if (repeats >= LOOP_REPEATS) {
        const what = `${tool?.name ?? call.toolName} ${describeArgs(call.input)}`.trim();
        await o.recorder.record(tool ? stepType(tool.name) : call.toolName, `Stopped: ${what} repeated ${LOOP_REPEATS} times in a row`, false);
        throw new TaskFailedError(`Task stopped: the agent repeated the same action (${what}) ${LOOP_REPEATS} times in a row without progress (loop detected)`);
      }
      if (!tool) {
        await o.recorder.record(call.toolName, `Unknown tool ${call.toolName}`, false);
        results.push(textResult(call.toolCallId, call.toolName, `There is no tool named ${call.toolName}.`));
        continue;
      }
      const response = await runTool(tool, { session: o.session, knowledge: o.knowledge }, call.input);
      o.signal.throwIfAborted();
      const url = o.session.page.url();
      o.recorder.visit(url);
      await o.refreshSecrets();
      const text = o.redactor.redact(response.toText());
      await o.recorder.record(stepType(tool.name), stepMessage(tool.name, call.input, text, response.isError, url), !response.isError);
      results.push(textResult(call.toolCallId, call.toolName, clip(text, RESULT_MAX_CHARS)));
    }
    messages.push({ role: 'tool', content: results });
    shrinkOldResults(messages);
  }
}
