import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DesignBody } from '../../lib/design/schemas.js';
import { PLACEHOLDER_MODEL_ENV } from '../support/runtime.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
/** The file behind `npm start` / `npm run admin`, read from package.json so the test follows it. */
const entry = (script: string) => (scripts[script] ?? '').replace(/^tsx\s+/, '');

const dataDir = mkdtempSync(join(tmpdir(), 'bts-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * The placeholder model lets POST /v1/tasks accept the tasks this test submits; a short
 * agent budget ends their runs (on an unreachable model) quickly, so a restart never waits.
 */
async function start(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(TSX, [entry('start')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...PLACEHOLDER_MODEL_ENV,
      BTS_AGENT_BUDGET_MS: '3000',
      PORT: '0',
      BTS_DATA_DIR: dataDir,
      BTS_LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((res, rej) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearInterval(timer);
        res(m[1]);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      rej(new Error(`exited ${code}: ${out}`));
    });
  });
  return { child, url, output: () => out };
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((res) => {
    child.once('exit', (code) => res(code));
    child.kill('SIGINT');
  });

function admin(args: string[]): { code: number | null; json: Record<string, unknown>; stderr: string } {
  const r = spawnSync(TSX, [entry('admin'), ...args], {
    cwd: ROOT,
    env: { ...process.env, BTS_DATA_DIR: dataDir, BTS_LOG_LEVEL: 'SILENT' },
    encoding: 'utf8',
  });
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    /* asserted through code/stderr */
  }
  return { code: r.status, json, stderr: r.stderr };
}

describe('npm start and the admin CLI', () => {
  it('starts, prints a key and a curl line, serves, and keeps data across a restart', async () => {
    const first = await start();
    const key = /(bts_live_[0-9A-Za-z]{40})/.exec(first.output())?.[1];
    expect(key).toBeDefined();
    // The banner's POSTs are requests the fresh service accepts: its lookup task is submitted for real (it
    // needs no model; offline it fails at DNS), the design body is held to the schema its handler validates with
    // (run here, its Chromium would outlive the restart below).
    const curls = [...first.output().matchAll(/curl -s -X POST (\S+) .* -d '([^']+)'/g)].map((m) => ({
      url: m[1] ?? '',
      body: m[2] ?? '',
    }));
    const lookup = curls.find((c) => c.body.includes('"lookup"'));
    const design = curls.find((c) => new URL(c.url).pathname === '/v1/design/extract');
    const res = await fetch(lookup?.url ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: lookup?.body,
    });
    expect(res.status).toBe(201);
    expect(DesignBody.safeParse(JSON.parse(design?.body ?? 'null')).success).toBe(true);
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    const created = (await (
      await fetch(`${first.url}/v1/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ endUserId: 'restart', task: 'survive a restart' }),
      })
    ).json()) as { taskId: string };

    // The admin CLI acts on the running runtime.
    const minted = admin(['create-key', '--business', 'cli-biz', '--label', 'from cli']);
    expect(minted.code).toBe(0);
    expect(minted.json).toEqual({
      businessId: 'cli-biz',
      keyId: expect.any(String),
      apiKey: expect.any(String),
      prefix: expect.any(String),
    });
    const listed = admin(['list-keys', '--business', 'cli-biz']);
    expect(listed.json.keys).toEqual([
      expect.objectContaining({ keyId: minted.json.keyId, label: 'from cli', revokedAt: null }),
    ]);
    expect(JSON.stringify(listed.json)).not.toContain(String(minted.json.apiKey));
    expect(admin(['set-quota', '--business', 'cli-biz', '--limit', '1']).json).toEqual({ ok: true });
    const post = (k: string) =>
      fetch(`${first.url}/v1/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
        body: JSON.stringify({ endUserId: 'q', task: 'x' }),
      });
    expect((await post(String(minted.json.apiKey))).status).toBe(201);
    expect((await post(String(minted.json.apiKey))).status).toBe(429);
    const token = admin(['dashboard-token', '--business', 'cli-biz']).json.token;
    expect(
      (await fetch(`${first.url}/v1/api-keys`, { headers: { authorization: `Bearer ${String(token)}` } })).status,
    ).toBe(200);
    expect(admin(['revoke-key', '--business', 'cli-biz', '--key-id', String(minted.json.keyId)]).json).toEqual({
      ok: true,
    });
    expect((await post(String(minted.json.apiKey))).status).toBe(403);

    expect(await stop(first.child)).toBe(0);

    const second = await start();
    expect(second.output()).not.toMatch(/bts_live_/);
    const again = await fetch(`${second.url}/v1/tasks/${created.taskId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { task: string }).task).toBe('survive a restart');
    expect(await stop(second.child)).toBe(0);
  }, 90_000);

  it.each([
    [['nonsense'], /unknown command/],
    [['create-key'], /--business is required/],
    [['set-quota', '--business', 'b', '--limit', 'ten'], /--limit/],
    [['revoke-key', '--business', 'b'], /--key-id/],
    [['list-keys', '--business', 'b', '--bogus', 'x'], /Unknown option/],
  ])('admin %j exits 2 with a clear error', (args, message) => {
    const r = admin(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
