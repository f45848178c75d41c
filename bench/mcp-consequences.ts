import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * The "actions wait for their consequences" part of bench:mcp: three pages where a click
 * has a delayed effect (test/fixtures/pages/settle/), driven the same way through each
 * server: open, snapshot, act, snapshot. A case is correct when the snapshot taken right
 * after the action shows the new state. Times are per tool call, as a client sees them.
 */
export interface Driver {
  name: string;
  /** Starts a fresh browser context or tab for one round. */
  begin(c: Client): Promise<void>;
  navigate(c: Client, url: string): Promise<void>;
  snapshot(c: Client): Promise<string>;
  click(c: Client, ref: string, element: string): Promise<void>;
  type(c: Client, ref: string, element: string, text: string): Promise<void>;
}

export interface ConsequenceRound {
  correct: Record<string, boolean>;
  /** Milliseconds of each case's click. */
  clicks: Record<string, number>;
  /** The whole round: every navigate, snapshot, type and click of the three cases. */
  totalMs: number;
  /** A click on a button that does nothing (not part of the total). */
  noChangeClickMs: number;
}

export const CASES = ['fetch then render', 'navigation 150 ms later', 'form post, 300 ms server'] as const;

const refOf = (snap: string, role: string, name: string): string => {
  const ref = /\[ref=([a-z0-9]+)\]/.exec(snap.split('\n').find((l) => l.includes(`${role} "${name}"`)) ?? '')?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in snapshot`);
  return ref;
};

export function textOf(r: CallToolResult): string {
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  if (r.isError) throw new Error(text);
  return text;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function consequenceRound(d: Driver, c: Client, base: string): Promise<ConsequenceRound> {
  await d.begin(c);
  const correct: Record<string, boolean> = {};
  const clicks: Record<string, number> = {};
  const started = performance.now();
  const [fetchCase, navCase, formCase] = CASES;

  await d.navigate(c, `${base}/pages/settle/fetch.html`);
  let snap = await d.snapshot(c);
  clicks[fetchCase] = await timed(() => d.click(c, refOf(snap, 'button', 'Load orders'), 'Load orders button'));
  correct[fetchCase] = (await d.snapshot(c)).includes('Loaded 3 orders, total €184.50');

  await d.navigate(c, `${base}/pages/settle/delayed-link.html`);
  snap = await d.snapshot(c);
  clicks[navCase] = await timed(() =>
    d.click(c, refOf(snap, 'link', 'Continue to payment'), 'Continue to payment link'),
  );
  correct[navCase] = (await d.snapshot(c)).includes('Payment details');

  await d.navigate(c, `${base}/pages/settle/slow-form.html`);
  snap = await d.snapshot(c);
  await d.type(c, refOf(snap, 'textbox', 'Name'), 'Name field', 'Ada');
  clicks[formCase] = await timed(() => d.click(c, refOf(snap, 'button', 'Place order'), 'Place order button'));
  correct[formCase] = (await d.snapshot(c)).includes('Thank you, Ada.');
  const totalMs = performance.now() - started;

  await d.navigate(c, `${base}/pages/settle/fetch.html`);
  snap = await d.snapshot(c);
  const noChangeClickMs = await timed(() => d.click(c, refOf(snap, 'button', 'Do nothing'), 'Do nothing button'));
  return { correct, clicks, totalMs, noChangeClickMs };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

export interface ConsequenceSummary {
  /** Cases correct in every round. */
  correct: number;
  /** Per case: rounds correct / rounds. */
  perCase: Record<string, string>;
  clickMedians: Record<string, number>;
  clickSum: number;
  totalMedian: number;
  noChangeMedian: number;
}

export function summarize(rounds: ConsequenceRound[]): ConsequenceSummary {
  const perCase: Record<string, string> = {};
  const clickMedians: Record<string, number> = {};
  let correct = 0;
  for (const k of CASES) {
    const ok = rounds.filter((r) => r.correct[k]).length;
    perCase[k] = `${ok}/${rounds.length}`;
    if (ok === rounds.length) correct++;
    clickMedians[k] = median(rounds.map((r) => r.clicks[k] ?? NaN));
  }
  return {
    correct,
    perCase,
    clickMedians,
    clickSum: CASES.reduce((t, k) => t + (clickMedians[k] ?? 0), 0),
    totalMedian: median(rounds.map((r) => r.totalMs)),
    noChangeMedian: median(rounds.map((r) => r.noChangeClickMs)),
  };
}

export function printConsequences(
  rounds: number,
  names: [string, string],
  a: ConsequenceSummary,
  b: ConsequenceSummary,
): void {
  const row = (label: string, x: string, y: string, ratio = ''): void =>
    console.log(`${label.padEnd(30)}${x.padStart(18)}${y.padStart(18)}${ratio.padStart(8)}`);
  const ms = (n: number): string => n.toFixed(1);
  console.log(
    `\nActions that wait for their consequences (median of ${rounds} rounds, ms; pages under test/fixtures/pages/settle)`,
  );
  row('', names[0], names[1], 'ratio');
  row('correct (every round)', `${a.correct}/${CASES.length}`, `${b.correct}/${CASES.length}`);
  for (const k of CASES) {
    row(`  ${k}: correct`, a.perCase[k] ?? '', b.perCase[k] ?? '');
    row(
      `  ${k}: click`,
      ms(a.clickMedians[k] ?? NaN),
      ms(b.clickMedians[k] ?? NaN),
      ((a.clickMedians[k] ?? NaN) / (b.clickMedians[k] ?? NaN)).toFixed(2),
    );
  }
  row('sum of click times', ms(a.clickSum), ms(b.clickSum), (a.clickSum / b.clickSum).toFixed(2));
  row('whole scenario', ms(a.totalMedian), ms(b.totalMedian), (a.totalMedian / b.totalMedian).toFixed(2));
  row(
    'click with no effect',
    ms(a.noChangeMedian),
    ms(b.noChangeMedian),
    (a.noChangeMedian / b.noChangeMedian).toFixed(2),
  );
}
