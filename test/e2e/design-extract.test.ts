import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTORS } from '../../lib/tasks/model.js';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

let rt: TestRuntime;
let site: FixtureServer;

interface ImageOut {
  src: string;
  naturalWidth: number;
  naturalHeight: number;
  downloadUrl?: string;
  s3Key?: string;
}

beforeAll(async () => {
  rt = await startTestRuntime({ workers: true });
  site = await startFixtureServer();
});

afterAll(async () => {
  await rt?.stop();
  await site?.close();
});

describe('design extraction end to end', () => {
  it('submits, polls and completes with the design field in SPEC 2.3 shape; assets download', async () => {
    // Prepare
    const url = `${site.url}/worker/site/`;
    // Act
    const submit = await rt.call('POST', '/v1/design/extract', { body: { url, endUserId: 'designer-1' } });
    expect(submit.status).toBe(202);
    const taskId = String(submit.body.taskId);
    const task = await rt.poll(taskId);
    // Assess
    expect(task.status, String(task.error)).toBe('completed');
    expect(task.error).toBeUndefined();
    const design = task.design as {
      url: string;
      extractors: string[];
      durationMs: number;
      results: Record<string, unknown>;
    };
    expect(design.url).toBe(url);
    expect(design.extractors).toEqual([...EXTRACTORS]);
    expect(design.durationMs).toBeGreaterThan(0);
    expect(Object.keys(design.results).sort()).toEqual([...EXTRACTORS].sort());
    for (const name of EXTRACTORS) expect(design.results[name], name).not.toHaveProperty('error');

    const images = (design.results.images as { images: ImageOut[] }).images;
    const hero = images.find((i) => i.src.endsWith('/hero.png'));
    expect(hero).toMatchObject({ naturalWidth: 48, naturalHeight: 32 });
    expect(hero?.s3Key).toMatch(new RegExp(`^assets/${rt.runtime.businessId}/${taskId}/`));
    const download = await fetch(String(hero?.downloadUrl));
    expect(download.status).toBe(200);
    const expected = readFileSync(join(FIXTURES_DIR, 'worker/site/hero.png'));
    expect(Buffer.from(await download.arrayBuffer()).equals(expected)).toBe(true);

    const logo = (design.results.logo as { logo: { found: boolean; src?: string } }).logo;
    expect(logo.found).toBe(true);
    expect(logo.src).toContain('logo.svg');

    // The trace says what ran: the page's host, a load step, then one step per extractor in order.
    expect(task.visitedUrls).toEqual([new URL(url).host]);
    const steps = task.stepSummaries as { n: number; type: string; msg: string; success: boolean }[];
    expect(steps.map((s) => s.type)).toEqual(['load', ...EXTRACTORS]);
    expect(steps.map((s) => s.n)).toEqual(steps.map((_, i) => i + 1));
    expect(steps.every((s) => s.success)).toBe(true);
    expect(steps[0]?.msg).toMatch(new RegExp(`^Loaded ${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} in \\d+ ms$`));
    expect(steps.find((s) => s.type === 'logo')?.msg).toMatch(/^logo: .+ in \d+ ms$/);
    expect(task.totalSteps).toBe(steps.length);

    // Internal timings sit beside the spec's durationMs on the stored item.
    const item = (await rt.runtime.deps.tasks.get(taskId)) as unknown as {
      designTimings?: { inPageMs: number; totalMs: number };
      attempts?: number;
    };
    expect(item.attempts).toBe(1);
    expect(item.designTimings?.inPageMs).toBeGreaterThan(0);
    expect(item.designTimings?.totalMs).toBe(design.durationMs);
  });

  it('runs exactly the path extractor on the alias endpoint', async () => {
    const submit = await rt.call('POST', '/v1/design/extract/colors', {
      body: { url: `${site.url}/worker/site/`, endUserId: 'designer-1' },
    });
    expect(submit.status).toBe(202);
    const task = await rt.poll(String(submit.body.taskId));
    expect(task.status, String(task.error)).toBe('completed');
    const design = task.design as { extractors: string[]; results: Record<string, unknown> };
    expect(design.extractors).toEqual(['colors']);
    expect(Object.keys(design.results)).toEqual(['colors']);
    const colors = (design.results.colors as { colors: { hex: string; role: string }[] }).colors;
    expect(colors.map((c) => c.hex.toLowerCase())).toContain('#1f5fd6');
  });
});
