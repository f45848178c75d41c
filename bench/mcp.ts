import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sparticuz from '@sparticuz/chromium';
import { startFixtureServer } from '../test/support/fixture-server.js';
import { slowRoutes } from '../test/support/slow-routes.js';
import {
  consequenceRound,
  printConsequences,
  summarize,
  textOf,
  type ConsequenceRound,
  type ConsequenceSummary,
  type Driver,
} from './mcp-consequences.js';

/**
 * `npm run bench:mcp`: the same scenario (navigate, snapshot, click, snapshot, fill, get
 * markdown) on local fixture pages against this server and @playwright/mcp, both over
 * stdio on the same Chromium binary. Prints per-tool median latency and snapshot sizes,
 * then the consequence pages (bench/mcp-consequences.ts): correctness, click times and
 * whole-scenario time side by side. Bounded: a fixed number of rounds, one server at a time.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CONSEQUENCE_ROUNDS = Number(process.env.BENCH_CONSEQUENCE_ROUNDS ?? 5);
const ROOT = resolve(import.meta.dirname, '..');

type Step = 'navigate' | 'snapshot' | 'click' | 'snapshot2' | 'fill' | 'markdown';
const STEPS: Step[] = ['navigate', 'snapshot', 'click', 'snapshot2', 'fill', 'markdown'];

const refOf = (snap: string, role: string, name: string): string => {
  const ref = /\[ref=([a-z0-9]+)\]/.exec(snap.split('\n').find((l) => l.includes(`${role} "${name}"`)) ?? '')?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in snapshot`);
  return ref;
};

interface Adapter {
  name: string;
  driver: Driver;
  start(): Promise<Client>;
  /** Runs one scenario round, returning the latency of each step. */
  round(c: Client, url: string): Promise<Record<Step, number>>;
  snapshotSizes(c: Client, url: string): Promise<{ full: number; filtered?: number; contains?: number }>;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
}

const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<string> =>
  textOf((await c.callTool({ name, arguments: args })) as CallToolResult);

let ourSession = '';
const ours: Adapter = {
  name: 'browser-task-mcp',
  driver: {
    name: 'browser-task-mcp',
    async begin(c) {
      ourSession = (JSON.parse(await call(c, 'create_session', {})) as { sessionId: string }).sessionId;
    },
    navigate: async (c, url) => void (await call(c, 'navigate', { sessionId: ourSession, url })),
    snapshot: (c) => call(c, 'snapshot', { sessionId: ourSession }),
    click: async (c, ref) => void (await call(c, 'click', { sessionId: ourSession, ref })),
    type: async (c, ref, _element, value) => void (await call(c, 'fill', { sessionId: ourSession, ref, value })),
  },
  async start() {
    const c = new Client({ name: 'bench', version: '1' });
    // The fixtures are on loopback, which the network guard refuses unless told otherwise.
    // Every round opens a fresh browser session, more than the default cap of 5 per MCP session.
    const args = [
      '--import',
      'tsx',
      resolve(ROOT, 'lib/mcp/cli.ts'),
      '--log-level',
      'error',
      '--allow-private-network',
      '--max-browser-sessions',
      '100',
    ];
    await c.connect(new StdioClientTransport({ command: process.execPath, args, cwd: ROOT }));
    return c;
  },
  async round(c, url) {
    const sessionId = (JSON.parse(await call(c, 'create_session', {})) as { sessionId: string }).sessionId;
    const [, navigate] = await timed(() => call(c, 'navigate', { sessionId, url }));
    const [snap, snapshot] = await timed(() => call(c, 'snapshot', { sessionId }));
    const [, click] = await timed(() => call(c, 'click', { sessionId, ref: refOf(snap, 'button', 'Save draft') }));
    const [snap2, snapshot2] = await timed(() => call(c, 'snapshot', { sessionId }));
    const [, fill] = await timed(() =>
      call(c, 'fill', { sessionId, ref: refOf(snap2, 'textbox', 'Full name'), value: 'Grace Hopper' }),
    );
    const [, markdown] = await timed(() => call(c, 'content.get_markdown', { sessionId }));
    return { navigate, snapshot, click, snapshot2, fill, markdown };
  },
  async snapshotSizes(c, url) {
    const sessionId = (JSON.parse(await call(c, 'create_session', {})) as { sessionId: string }).sessionId;
    await call(c, 'navigate', { sessionId, url });
    const full = await call(c, 'snapshot', { sessionId });
    // The capped answer names the uncapped size: compare against the whole page.
    const whole = Number(/of (\d+) characters/.exec(full)?.[1] ?? full.length);
    const filtered = await call(c, 'snapshot', { sessionId, roles: ['button'] });
    const contains = await call(c, 'snapshot', { sessionId, contains: 'Product 12' });
    return { full: whole, filtered: filtered.length, contains: contains.length };
  },
};

const playwright: Adapter = {
  name: '@playwright/mcp',
  driver: {
    name: '@playwright/mcp',
    begin: async () => undefined,
    navigate: async (c, url) => void (await call(c, 'browser_navigate', { url })),
    snapshot: (c) => call(c, 'browser_snapshot', {}),
    click: async (c, ref, element) => void (await call(c, 'browser_click', { element, target: ref })),
    type: async (c, ref, element, text) => void (await call(c, 'browser_type', { element, target: ref, text })),
  },
  async start() {
    const c = new Client({ name: 'bench', version: '1' });
    const cli = resolve(ROOT, 'node_modules/@playwright/mcp/cli.js');
    const outDir = mkdtempSync(join(tmpdir(), 'pw-mcp-'));
    await c.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          cli,
          '--headless',
          '--isolated',
          '--no-sandbox',
          '--executable-path',
          await sparticuz.executablePath(),
          '--output-dir',
          outDir,
        ],
        cwd: ROOT,
      }),
    );
    return c;
  },
  async round(c, url) {
    // Playwright MCP has one browser context per server; a fresh tab per round keeps rounds comparable.
    const [, navigate] = await timed(() => call(c, 'browser_navigate', { url }));
    const [snap, snapshot] = await timed(() => call(c, 'browser_snapshot', {}));
    const [, click] = await timed(() =>
      call(c, 'browser_click', { element: 'Save draft button', target: refOf(snap, 'button', 'Save draft') }),
    );
    const [snap2, snapshot2] = await timed(() => call(c, 'browser_snapshot', {}));
    const [, fill] = await timed(() =>
      call(c, 'browser_type', {
        element: 'Full name',
        target: refOf(snap2, 'textbox', 'Full name'),
        text: 'Grace Hopper',
      }),
    );
    // No Markdown tool in Playwright MCP: the nearest read of the page text is an evaluate.
    const [, markdown] = await timed(() => call(c, 'browser_evaluate', { function: '() => document.body.innerText' }));
    return { navigate, snapshot, click, snapshot2, fill, markdown };
  },
  async snapshotSizes(c, url) {
    await call(c, 'browser_navigate', { url });
    return { full: (await call(c, 'browser_snapshot', {})).length };
  },
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

interface Measured {
  medians: Record<Step, number>;
  sizes: { full: number; filtered?: number; contains?: number };
  consequences: ConsequenceSummary;
}

async function measure(a: Adapter, base: string): Promise<Measured> {
  const formUrl = `${base}/pages/form.html`;
  const largeUrl = `${base}/pages/large.html`;
  const c = await a.start();
  try {
    await a.round(c, formUrl); // warm-up: browser launch and first-page costs are not per-tool latency
    const samples: Record<Step, number[]> = {
      navigate: [],
      snapshot: [],
      click: [],
      snapshot2: [],
      fill: [],
      markdown: [],
    };
    for (let i = 0; i < ROUNDS; i++) {
      const r = await a.round(c, formUrl);
      for (const s of STEPS) samples[s].push(r[s]);
    }
    const medians = Object.fromEntries(STEPS.map((s) => [s, median(samples[s])])) as Record<Step, number>;
    const sizes = await a.snapshotSizes(c, largeUrl);
    await consequenceRound(a.driver, c, base); // warm-up
    const rounds: ConsequenceRound[] = [];
    for (let i = 0; i < CONSEQUENCE_ROUNDS; i++) rounds.push(await consequenceRound(a.driver, c, base));
    return { medians, sizes, consequences: summarize(rounds) };
  } finally {
    await c.close();
  }
}

async function main(): Promise<void> {
  const slow = slowRoutes();
  const fx = await startFixtureServer({ routes: slow.routes });
  try {
    const a = await measure(ours, fx.url);
    const b = await measure(playwright, fx.url);
    console.log(`\nMedian latency per tool (ms, ${ROUNDS} rounds, form.html)`);
    console.log(`${'step'.padEnd(12)}${ours.name.padStart(18)}${playwright.name.padStart(18)}${'ratio'.padStart(8)}`);
    for (const s of STEPS) {
      console.log(
        `${s.padEnd(12)}${a.medians[s].toFixed(1).padStart(18)}${b.medians[s].toFixed(1).padStart(18)}${(a.medians[s] / b.medians[s]).toFixed(2).padStart(8)}`,
      );
    }
    const totalA = STEPS.reduce((t, s) => t + a.medians[s], 0);
    const totalB = STEPS.reduce((t, s) => t + b.medians[s], 0);
    console.log(
      `${'total'.padEnd(12)}${totalA.toFixed(1).padStart(18)}${totalB.toFixed(1).padStart(18)}${(totalA / totalB).toFixed(2).padStart(8)}`,
    );
    console.log(`\nSnapshot size on large.html (characters)`);
    const pct = (n = 0): string => `${((n / a.sizes.full) * 100).toFixed(2)}% of full`;
    console.log(`  ${ours.name}: full ${a.sizes.full} (answer capped at 40000 with the narrowing marker)`);
    console.log(
      `    roles ["button"]: ${a.sizes.filtered} = ${pct(a.sizes.filtered)}; contains "Product 12": ${a.sizes.contains} = ${pct(a.sizes.contains)}`,
    );
    console.log(`  ${playwright.name}: full ${b.sizes.full} (no filters)`);
    printConsequences(CONSEQUENCE_ROUNDS, [ours.name, playwright.name], a.consequences, b.consequences);
  } finally {
    slow.release();
    await fx.close();
  }
}

await main();
