import { startAgentWorld, type AgentWorld } from '../test/agent/harness.js';
import { accountReader, cartShopper, shopper, type Policy } from '../test/fixtures/agent/policies.js';
import { scriptedModel } from '../test/fixtures/agent/scripted-model.js';
import { uniqueId } from '../test/support/aws.js';
import type { TaskItem } from '../lib/tasks/model.js';
import { resolve } from 'node:path';
import { BrowserLauncher, type BrowserLease } from '../lib/browser/chromium.js';
import { KnowledgeIndex } from '../lib/knowledge/index.js';
import { submitAgentTask } from '../lib/tasks/use-cases.js';
import { startPublicApi } from '../test/support/public-api.js';

/**
 * `npm run bench:agent`: the fixture tasks through the real worker runner (emulated
 * DynamoDB/S3, real Chromium) with the scripted model, which answers at once. Per task:
 * steps, wall time, time waiting for the model, and the agent's own overhead per step
 * (wall time not spent in the model: observe, tools, progress writes, setup). Aim < 300 ms.
 */
const ROUNDS = Number(process.argv[2] ?? 3);

interface Case {
  name: string;
  run(world: AgentWorld): Promise<TaskItem[]>;
}

async function single(
  world: AgentWorld,
  task: string,
  startUrl: string,
  policy: Policy,
  extra: { businessId?: string; endUserId?: string; schema?: Record<string, unknown> } = {},
): Promise<TaskItem[]> {
  const model = scriptedModel(policy);
  const { taskId } = await world.submit({
    task,
    agent: { startUrl, ...(extra.schema ? { schema: extra.schema } : {}) },
    ...extra,
  });
  return [await world.work(taskId, model)];
}

const CASES: Case[] = [
  {
    name: 'price lookup',
    run: (w) =>
      single(
        w,
        'What does the Trail Runner X cost?',
        `${w.site.url}/`,
        shopper({ query: 'trail runner', product: /Trail Runner X/ }),
      ),
  },
  {
    name: 'structured price',
    run: (w) =>
      single(
        w,
        'Price of the Summit Shell Jacket as JSON',
        `${w.site.url}/`,
        shopper({ query: 'jacket', product: /Summit/, data: (name, price) => ({ name, price: Number(price) }) }),
        {
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, price: { type: 'number' } },
            required: ['name', 'price'],
          },
        },
      ),
  },
  {
    name: 'two-turn cart session',
    async run(w) {
      const businessId = uniqueId('bench');
      const first = await w.submit({
        businessId,
        task: 'Add the Trail Runner X to my cart',
        agent: { startUrl: `${w.site.url}/` },
      });
      const t1 = await w.work(first.taskId, scriptedModel(cartShopper));
      const second = await w.submit({ businessId, sessionId: first.sessionId, task: 'What is in my cart?' });
      return [t1, await w.work(second.taskId, scriptedModel(cartShopper))];
    },
  },
  {
    name: 'signed-in account (credentials)',
    async run(w) {
      const businessId = uniqueId('bench');
      await w.uploadRedditSession(businessId, 'bench-user');
      return single(w, 'Which reddit account am I signed in with?', `${w.site.crossOriginUrl}/account`, accountReader, {
        businessId,
        endUserId: 'bench-user',
      });
    },
  },
];

class CountingLauncher extends BrowserLauncher {
  leases = 0;
  override async lease(tenant: string): Promise<BrowserLease> {
    this.leases += 1;
    return super.lease(tenant);
  }
}

const npmAnswerer: Policy = (v) =>
  v.calls === 0
    ? { tool: 'lookup', args: { site: 'npm', operation: 'package', params: { name: 'express' } } }
    : { tool: 'done', args: { answer: /"version": "([^"]+)"/.exec(v.lastResult)?.[1] ?? 'unknown' } };

/**
 * The fast path against the offline TLS stand-in of registry.npmjs.org, through the real
 * network guard: an agent task answered by knowledge → lookup → done (aim: p50 < 300 ms,
 * zero browsers), and a model-free lookup task from submission to completion through the
 * worker runner (aim: p50 < 100 ms).
 */
async function fastPath(world: AgentWorld): Promise<void> {
  const api = await startPublicApi();
  const index = await KnowledgeIndex.load(resolve(import.meta.dirname, '../data/knowledgegraphindex'));
  const browsers = new CountingLauncher({ headless: true });
  const deps = { network: api.policy(), knowledge: async () => index, browsers };
  const rounds = Math.max(ROUNDS, 20);
  try {
    const agent: number[] = [];
    const lookups: number[] = [];
    const statuses = new Set<string>();
    for (let i = 0; i < rounds; i++) {
      let started = performance.now();
      const { task } = await world.run({
        task: 'What is the latest version of the express package on npm?',
        policy: npmAnswerer,
        deps,
      });
      agent.push(performance.now() - started);
      statuses.add(task.status);
      started = performance.now();
      const submitted = await submitAgentTask(
        { ...world.deps, ...deps },
        { businessId: uniqueId('bench') },
        {
          endUserId: 'bench',
          task: 'Look up npm/package',
          agent: {
            maxSteps: 1,
            includeHtmlDump: false,
            lookup: { site: 'npm', operation: 'package', params: { name: 'express' } },
          },
        },
      );
      const done = await world.work(submitted.taskId, scriptedModel(npmAnswerer), { deps });
      lookups.push(performance.now() - started);
      statuses.add(done.status);
    }
    const p = (xs: number[], q: number): number =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? 0;
    console.log(`\nfast path (${rounds} rounds, offline TLS stand-in for registry.npmjs.org, real guard)`);
    console.log(
      `agent knowledge→lookup→done   p50 ${p(agent, 0.5).toFixed(0)} ms  p95 ${p(agent, 0.95).toFixed(0)} ms  (aim p50 < 300 ms) ${p(agent, 0.5) < 300 ? 'OK' : 'OVER'}`,
    );
    console.log(
      `model-free lookup task        p50 ${p(lookups, 0.5).toFixed(0)} ms  p95 ${p(lookups, 0.95).toFixed(0)} ms  (aim p50 < 100 ms) ${p(lookups, 0.5) < 100 ? 'OK' : 'OVER'}`,
    );
    console.log(`browsers launched: ${browsers.leases} (aim 0); statuses: ${[...statuses].join(', ')}`);
  } finally {
    await browsers.close();
    await api.close();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const world = await startAgentWorld();
  try {
    // Warm-up: launches Chromium and fills caches, as a warm Lambda container would be.
    await CASES[0]?.run(world);
    console.log(`agent bench: ${ROUNDS} rounds per task, scripted model (no model latency), medians\n`);
    console.log('task                              steps  wall ms  model ms  overhead ms/step  status');
    const perStep: number[] = [];
    for (const c of CASES) {
      const walls: number[] = [];
      const models: number[] = [];
      const overheads: number[] = [];
      let steps = 0;
      let status = '';
      for (let i = 0; i < ROUNDS; i++) {
        const started = performance.now();
        const tasks = await c.run(world);
        const wall = performance.now() - started;
        steps = tasks.reduce((s, t) => s + t.totalSteps, 0);
        const modelMs = tasks.reduce((s, t) => s + Number(t.usage?.modelMs ?? 0), 0);
        status = tasks.map((t) => t.status).join('+');
        walls.push(wall);
        models.push(modelMs);
        overheads.push((wall - modelMs) / Math.max(1, steps));
      }
      perStep.push(median(overheads));
      console.log(
        `${c.name.padEnd(33)} ${String(steps).padStart(5)}  ${median(walls).toFixed(0).padStart(7)}  ${median(models).toFixed(0).padStart(8)}  ${median(overheads).toFixed(1).padStart(16)}  ${status}`,
      );
    }
    const worst = Math.max(...perStep);
    console.log(
      `\nworst median overhead per step: ${worst.toFixed(1)} ms (aim < 300 ms) ${worst < 300 ? 'OK' : 'OVER'}`,
    );
    await fastPath(world);
  } finally {
    await world.stop();
  }
}

await main();
process.exit(0);
