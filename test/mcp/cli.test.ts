import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliCommand, ROOT } from './helpers.js';

/** The real CLI process: exit codes, env and flags end to end, the package bin (every flag's parsing: test/unit/mcp). */
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
});

function run(
  args: string[],
  env: Record<string, string> = {},
  command = cliCommand(args),
): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(command.command, command.args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) =>
    child.on('exit', (code) => r({ code, stdout, stderr })),
  );
  return { child, done };
}

async function freePort(): Promise<number> {
  return new Promise((r) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => r(port));
    });
  });
}

async function waitForHealth(port: number): Promise<number> {
  for (let i = 0; i < 100; i++) {
    try {
      return (await fetch(`http://127.0.0.1:${port}/health`)).status;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`no server on ${port}`);
}

describe('browser-task-mcp CLI', () => {
  it.each([
    [['--bogus'], /Unknown flag --bogus/],
    [['--port', 'abc'], /--port/],
  ])('refuses %j with a clear message and a non-zero exit', async (args, message) => {
    const { code, stderr } = await run(args).done;
    expect(code).not.toBe(0);
    expect(stderr).toMatch(message);
  });

  it('refuses bad values from BTS_ environment variables, naming the variable', async () => {
    const { code, stderr } = await run([], { BTS_LOG_LEVEL: 'loud' }).done;
    expect(code).not.toBe(0);
    expect(stderr).toContain('BTS_LOG_LEVEL');
  });

  it('serves HTTP from env (BTS_TRANSPORT=sse alias, BTS_PORT) and a flag wins over its variable', async () => {
    const envPort = await freePort();
    const flagPort = await freePort();
    const a = run([], { BTS_TRANSPORT: 'sse', BTS_PORT: String(envPort), BTS_LOG_LEVEL: 'error' });
    expect(await waitForHealth(envPort)).toBe(200);
    a.child.kill('SIGTERM');
    expect((await a.done).code).toBe(0);
    const b = run(['--port', String(flagPort)], {
      BTS_TRANSPORT: 'http',
      BTS_PORT: String(envPort),
      BTS_LOG_LEVEL: 'error',
    });
    expect(await waitForHealth(flagPort)).toBe(200);
    await expect(fetch(`http://127.0.0.1:${envPort}/health`)).rejects.toThrow();
    b.child.kill('SIGTERM');
    await b.done;
  });

  it('the package bin runs the CLI', async () => {
    const bin = { command: process.execPath, args: [resolve(ROOT, 'bin/browser-task-mcp.mjs'), '--help'] };
    const { code, stdout } = await run([], {}, bin).done;
    expect(code).toBe(0);
    expect(stdout).toContain('--knowledge-graph-dir');
    expect(stdout).toContain('BTS_');
  });
});
