import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

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

/**
 * Chromium's command line: @sparticuz/chromium's flags (its binary runs in Lambda and on
 * Linux x64 alike) without the unsafe ones, plus the quiet ones.
 */
export function chromiumArgs(inLambda: boolean): string[] {
  const base = sparticuz.args.filter((a) => !UNSAFE_FLAGS.has(a) && !a.startsWith('--headless'));
  // --single-process saves memory in Lambda's one-task-at-a-time sandbox; locally the MCP
  // server runs many contexts at once and a crash of one page must not take down all.
  const args = inLambda ? base : base.filter((a) => a !== '--single-process' && a !== '--no-zygote');
  return [...new Set([...args, ...QUIET_FLAGS])];
}

export interface LaunchOptions {
  /** CHROMIUM_PATH: a Chrome/Chromium to use instead of the one in @sparticuz/chromium. */
  executablePath?: string;
  /** Lambda runs one task per sandbox, which allows the leaner single-process flags. */
  inLambda?: boolean;
  headless?: boolean;
}

export async function launchBrowser(opts: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: opts.executablePath ?? (await sparticuz.executablePath()),
    args: chromiumArgs(opts.inLambda ?? false),
    headless: opts.headless ?? true,
    chromiumSandbox: false,
  });
}

/**
 * One Chromium per process (a warm container, the MCP server), launched on first use
 * and relaunched if it crashed or was closed; callers get fresh contexts from it.
 */
export class BrowserLauncher {
  private pending: Promise<Browser> | undefined;

  constructor(private readonly opts: LaunchOptions = {}) {}

  async browser(): Promise<Browser> {
    if (this.pending) {
      const b = await this.pending.catch(() => undefined);
      if (b?.isConnected()) return b;
    }
    const launching = launchBrowser(this.opts);
    this.pending = launching;
    const browser = await launching;
    browser.on('disconnected', () => {
      if (this.pending === launching) this.pending = undefined;
    });
    return browser;
  }

  async close(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    const b = await pending?.catch(() => undefined);
    await b?.close().catch(() => undefined);
  }
}
