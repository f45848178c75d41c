import type { StepSummary, TaskView } from './model.js';

/**
 * Lambda refuses a response over 6 MB (6,291,456 bytes), so every read fits the task
 * records it returns into a budget well below it. A field that does not fit is cut (a
 * string keeps its beginning) or left out (an object), and the record says so in
 * `truncated`, with a link to the full offloaded object when there is one.
 */
export const RESPONSE_BUDGET_BYTES = 5 * 1024 * 1024;
/** One step's message: a trace line, not a page dump. */
export const MAX_STEP_MESSAGE_CHARS = 2_000;
export const MAX_STEPS_SHOWN = 200;
/** Room kept for the record's small fields and the JSON around the big ones. */
const OVERHEAD_BYTES = 16 * 1024;

/** The fields a read may cut, biggest first when it must. */
const CUTTABLE = ['html_dump', 'result', 'structured_content', 'design', 'stepSummaries'] as const;
type Cuttable = (typeof CUTTABLE)[number];

export interface Truncation {
  fields: Cuttable[];
  /** The full offloaded fields as JSON (a presigned URL), when the task has them in object storage. */
  downloadUrl?: string;
  note: string;
}

const bytes = (v: unknown): number => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v)));

/** The longest prefix of `s` whose UTF-8 encoding fits `max` bytes, never splitting a character. */
function cutUtf8(s: string, max: number): string {
  if (Buffer.byteLength(s) <= max) return s;
  return Buffer.from(s, 'utf8')
    .subarray(0, Math.max(0, max))
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

const capSteps = (steps: StepSummary[]): StepSummary[] =>
  steps
    .slice(0, MAX_STEPS_SHOWN)
    .map((s) =>
      s.msg.length > MAX_STEP_MESSAGE_CHARS ? { ...s, msg: `${s.msg.slice(0, MAX_STEP_MESSAGE_CHARS)}…` } : s,
    );

/**
 * `view` cut to `budgetBytes` of JSON. `download` presigns the offloaded object; it is
 * called only when something was cut.
 */
export async function fitTaskView(
  view: TaskView,
  budgetBytes: number,
  download?: () => Promise<string>,
): Promise<TaskView & { truncated?: Truncation }> {
  const out: TaskView & { truncated?: Truncation } = { ...view, stepSummaries: capSteps(view.stepSummaries) };
  const cut = new Set<Cuttable>();
  if (out.stepSummaries.length < view.stepSummaries.length) cut.add('stepSummaries');
  let excess = bytes(out) + OVERHEAD_BYTES - budgetBytes;
  while (excess > 0) {
    const biggest = [...CUTTABLE].filter((f) => out[f] !== undefined).sort((a, b) => bytes(out[b]) - bytes(out[a]))[0];
    if (!biggest) break;
    const size = bytes(out[biggest]);
    const value = out[biggest];
    if (typeof value === 'string' && size > excess) {
      (out as Record<Cuttable, unknown>)[biggest] = cutUtf8(value, Buffer.byteLength(value) - excess);
    } else if (biggest === 'stepSummaries') {
      out.stepSummaries = [];
    } else {
      delete out[biggest];
    }
    cut.add(biggest);
    excess = bytes(out) + OVERHEAD_BYTES - budgetBytes;
  }
  if (cut.size === 0) return out;
  const url = download ? await download() : undefined;
  out.truncated = {
    fields: [...cut],
    ...(url ? { downloadUrl: url } : {}),
    note: url
      ? 'Fields too large for this response were cut or left out; downloadUrl serves them in full (JSON) until it expires.'
      : 'Fields too large for this response were cut or left out; GET /v1/tasks/{taskId} returns more of them.',
  };
  return out;
}
