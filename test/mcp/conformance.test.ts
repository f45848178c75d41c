import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startToolServer, type RunningToolServer } from '../../lib/mcp/main.js';
import { parseServerOptions } from '../../lib/mcp/options.js';
import { ROOT } from './helpers.js';

/**
 * The official MCP conformance suite against our streamable HTTP server. The suite's own
 * baseline mechanism does the judging: a scenario that fails and is not in
 * conformance-baseline.yml, or one listed there that passes, makes it exit non-zero.
 */
const SUITE = resolve(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = resolve(import.meta.dirname, 'conformance-baseline.yml');
/** Scenarios a browser tool server must pass; checked by name so a change in the suite's defaults cannot drop them silently. */
const MUST_PASS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

let server: RunningToolServer;
let out: string;

beforeAll(async () => {
  // The suite opens a session per scenario and does not end them: room for all of them under one identity.
  server = await startToolServer(
    parseServerOptions(
      ['--transport', 'http', '--port', '0', '--log-level', 'error', '--max-mcp-sessions-per-key', '100'],
      {},
    ),
  );
  out = mkdtempSync(join(tmpdir(), 'bts-conformance-'));
});

afterAll(async () => {
  await server?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

function runSuite(url: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [SUITE, 'server', '--url', url, '--expected-failures', BASELINE, '-o', out],
      { cwd: out, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) =>
        done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

describe('MCP conformance suite', () => {
  it('passes every server scenario that applies to a browser server; only the baseline fails', async () => {
    const { code, output } = await runSuite(`http://127.0.0.1:${server.http?.port}/mcp`);
    const summary = output.slice(output.indexOf('=== SUMMARY ==='));
    expect(code, summary).toBe(0);
    const results = new Map<string, Check[]>();
    for (const dir of readdirSync(out)) {
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)?.[1];
      if (scenario) results.set(scenario, JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[]);
    }
    for (const scenario of MUST_PASS) {
      const checks = results.get(scenario);
      expect(checks, `${scenario} did not run`).toBeDefined();
      expect(
        checks?.filter((c) => c.status !== 'SUCCESS'),
        scenario,
      ).toEqual([]);
    }
  });
});
