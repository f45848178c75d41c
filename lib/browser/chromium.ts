import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { config } from '../config.js';

/**
 * Chromium launch shared by the worker, the MCP server and the tests. The binary inside
 * @sparticuz/chromium runs in Lambda and on Linux x64 alike; CHROMIUM_PATH overrides it
 * (macOS, a system Chrome). One browser per process (warm container), reused: callers get
 * fresh contexts from it.
 */

/** Flags from @sparticuz/chromium that weaken the browser's security model. We browse
 *  arbitrary sites with end-users' cookies, so the same-origin policy must stay on. */
const UNSAFE_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials']);

/** This machine and Lambda both sit on closed networks: Chromium's own phoning home
 *  (component updates, safe browsing, sync, metrics) only produces refused connections. */
const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-breakpad',
  '--metrics-recording-only',
  '--no-first-run',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-quic',
  '--disable-gpu',
];

export function chromiumArgs(inLambda: boolean): string[] {
  const base = sparticuz.args.filter((a) => !UNSAFE_FLAGS.has(a) && !a.startsWith('--headless'));
  // --single-process saves memory in Lambda's one-task-at-a-time sandbox; locally the MCP
  // server runs many contexts at once and a crash of one page must not take down all.
  const args = inLambda ? base : base.filter((a) => a !== '--single-process' && a !== '--no-zygote');
  return [...new Set([...args, ...QUIET_FLAGS])];
}

export async function chromiumExecutablePath(): Promise<string> {
  return config().CHROMIUM_PATH ?? (await sparticuz.executablePath());
}

export interface LaunchBrowserOptions {
  headless?: boolean;
  proxy?: LaunchOptions['proxy'];
}

export async function launchBrowser(opts: LaunchBrowserOptions = {}): Promise<Browser> {
  const inLambda = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);
  return chromium.launch({
    executablePath: await chromiumExecutablePath(),
    args: chromiumArgs(inLambda),
    headless: opts.headless ?? true,
    // Per-context proxies need a browser-level proxy setting on some platforms; the
    // placeholder is overridden by every context that sets its own.
    proxy: opts.proxy,
    chromiumSandbox: false,
  });
}

let shared: Promise<Browser> | undefined;

/** The process-wide browser; relaunched if it crashed or was closed. */
export async function sharedBrowser(): Promise<Browser> {
  if (shared) {
    const b = await shared.catch(() => undefined);
    if (b?.isConnected()) return b;
  }
  shared = launchBrowser();
  const browser = await shared;
  browser.on('disconnected', () => {
    shared = undefined;
  });
  return browser;
}

export async function closeSharedBrowser(): Promise<void> {
  const pending = shared;
  shared = undefined;
  const b = await pending?.catch(() => undefined);
  await b?.close().catch(() => undefined);
}
