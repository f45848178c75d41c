import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLauncher, type BrowserLease } from '../../lib/browser/chromium.js';
import { KnowledgeIndex } from '../../lib/knowledge/index.js';
import type { Policy } from '../fixtures/agent/policies.js';
import { fixtureCase, startPublicApi, type PublicApi } from '../support/public-api.js';
import { startAgentWorld, type AgentWorld } from './harness.js';

/**
 * The fast path: a task the knowledge graph can answer runs knowledge → lookup → done
 * with no browser at all. The launcher counts leases (a lease is the only way to a
 * browser or a context), and the public API is the offline stand-in behind the real guard.
 */
class CountingLauncher extends BrowserLauncher {
  leases = 0;
  override async lease(tenant: string): Promise<BrowserLease> {
    this.leases += 1;
    return super.lease(tenant);
  }
}

let world: AgentWorld;
let api: PublicApi;
let index: KnowledgeIndex;

beforeAll(async () => {
  world = await startAgentWorld();
  api = await startPublicApi();
  index = await KnowledgeIndex.load(resolve(import.meta.dirname, '../../data/knowledgegraphindex'));
}, 60_000);

afterAll(async () => {
  await api?.close();
  await world?.stop();
});

/** Reads the site's lookups from what the model was told, calls one, answers from its result. */
const npmAnswerer: Policy = (v) => {
  if (v.calls === 0) {
    const told = v.transcript.join('\n');
    if (!/lookup with site "npm"/.test(told) || !/- package:/.test(told))
      throw new Error(`the model was not told about npm's lookups:\n${told.slice(0, 1500)}`);
    return { tool: 'lookup', args: { site: 'npm', operation: 'package', params: { name: 'express' } } };
  }
  const version = /"version": "([^"]+)"/.exec(v.lastResult)?.[1];
  return {
    tool: 'done',
    args: { answer: version ? `The latest express is ${version}` : `no version in: ${v.lastResult}` },
  };
};

describe('the agent fast path', () => {
  it('answers through lookup without launching a browser; the trace shows fast_path steps and the endpoint', async () => {
    const browsers = new CountingLauncher({ headless: true });
    const c = fixtureCase('npm', 'package');
    const { task } = await world.run({
      task: 'What is the latest version of the express package on npm?',
      policy: npmAnswerer,
      deps: { network: api.policy(), knowledge: async () => index, browsers },
    });
    expect(task.status, String(task.error)).toBe('completed');
    expect(task.result).toBe(`The latest express is ${String(c.expect.version)}`);
    expect(task.stepSummaries.map((s) => s.type)).toEqual(['fast_path', 'fast_path', 'done']);
    expect(task.stepSummaries[1]?.msg).toBe(`Looked up npm/package: ${c.request}`);
    expect(task.visitedUrls).toEqual(['registry.npmjs.org']);
    expect(browsers.leases).toBe(0);
    await browsers.close();
  });

  it('still opens a browser when the model navigates after all', async () => {
    const browsers = new CountingLauncher({ headless: true });
    const browse: Policy = (v) =>
      v.calls === 0
        ? { tool: 'navigate', args: { url: `${world.site.url}/` } }
        : { tool: 'done', args: { answer: v.url } };
    const { task } = await world.run({
      task: 'Open the npm package page of express',
      policy: browse,
      deps: { knowledge: async () => index, browsers },
    });
    expect(task.status, String(task.error)).toBe('completed');
    expect(browsers.leases).toBe(1);
    expect(task.stepSummaries.map((s) => s.type)).toEqual(['fast_path', 'navigate', 'done']);
    await browsers.close();
  });
});
