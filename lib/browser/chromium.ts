import { tmpdir } from 'node:os';
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

/**
 * Flags from @sparticuz/chromium that weaken the browser's security model. We browse
 * arbitrary sites with end-users' cookies: the same-origin policy, site isolation and
 * the protections around SharedArrayBuffer (a Spectre timer) stay on.
 */
const UNSAFE_FLAGS = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--enable-features=SharedArrayBuffer',
]);

/** Sandbox flags; kept out wherever Chromium's own sandbox can run. */
const NO_SANDBOX_FLAGS = new Set(['--no-sandbox', '--disable-setuid-sandbox', '--no-zygote']);

/**
 * This machine and Lambda both sit on closed networks: Chromium's own phoning home
 * (component updates, safe browsing, sync, metrics) only produces refused connections.
 * WebRTC may only use proxied UDP, so no page can send packets past the egress proxy.
 */
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
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** What Chromium may see of the host's environment: nothing secret (no AWS credentials, no service settings). */
const CHROMIUM_ENV_KEYS = [
  'HOME',
  'TMPDIR',
  'TZ',
  'LANG',
  'LC_ALL',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
  'LD_LIBRARY_PATH',
] as const;

/**
 * Chromium's command line: @sparticuz/chromium's flags (its binary runs in Lambda and on
 * Linux x64 alike) without the unsafe ones, plus the quiet ones. Never single-process:
 * site isolation needs a renderer process per site (it also keeps one page's crash from
 * taking down the others). Without the sandbox (Lambda, root) its disabling flags stay.
 */
export function chromiumArgs(inLambda: boolean, sandbox = false): string[] {
  let base = sparticuz.args.filter(
    (a) => !UNSAFE_FLAGS.has(a) && !a.startsWith('--headless') && a !== '--single-process',
  );
  // sparticuz turns site isolation off together with the audio-service feature; keep only the latter.
  base = base.map((a) => (a.startsWith('--disable-features=') ? '--disable-features=AudioServiceOutOfProcess' : a));
  // Outside Lambda the zygote stays: it forks renderers cheaply for the many contexts there.
  if (!inLambda && !sandbox) base = base.filter((a) => a !== '--no-zygote');
  if (sandbox) base = base.filter((a) => !NO_SANDBOX_FLAGS.has(a));
  return [...new Set([...base, ...QUIET_FLAGS])];
}

/** Chromium's sandbox needs a non-root user outside Lambda (Lambda forbids the namespaces it uses). */
export function canSandbox(inLambda: boolean, uid: number | undefined): boolean {
  return !inLambda && uid !== undefined && uid !== 0;
}

/** The allow-listed variables of the host environment, with a scratch HOME when it has none. */
export function chromiumEnv(host: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = { HOME: tmpdir() };
  for (const k of CHROMIUM_ENV_KEYS) {
    const v = host[k];
    if (v !== undefined) env[k] = v;
  }
  return env;
}

export interface LaunchOptions {
  /** CHROMIUM_PATH: a Chrome/Chromium to use instead of the one in @sparticuz/chromium. */
  executablePath?: string;
  /** Lambda runs one task per sandbox, which allows the leaner single-process flags. */
  inLambda?: boolean;
  headless?: boolean;
  /**
   * The host environment, read at launch (after @sparticuz/chromium has added its library
   * and font paths in Lambda); only CHROMIUM_ENV_KEYS reach the browser.
   */
  hostEnv?: () => Record<string, string | undefined>;
}

export async function launchBrowser(opts: LaunchOptions = {}): Promise<Browser> {
  const inLambda = opts.inLambda ?? false;
  const executablePath = opts.executablePath ?? (await sparticuz.executablePath());
  const env = chromiumEnv(opts.hostEnv?.() ?? {});
  const launch = (sandbox: boolean) =>
    chromium.launch({
      executablePath,
      args: chromiumArgs(inLambda, sandbox),
      headless: opts.headless ?? true,
      chromiumSandbox: sandbox,
      env,
    });
  if (!canSandbox(inLambda, process.getuid?.())) return launch(false);
  // Some kernels forbid the user namespaces the sandbox needs; a browser without one beats none.
  return launch(true).catch(() => launch(false));
}

interface Held {
  browser: Promise<Browser>;
  leases: number;
}

/** A browser handed to one caller; release it when the caller's contexts are closed. */
export interface BrowserLease {
  browser: Browser;
  release(): void;
}

/**
 * The process's Chromium, launched on first use and relaunched if it crashed. One browser
 * serves one tenant (a business, an MCP key) at a time: a lease for another tenant gets a
 * fresh browser, and a tenant's idle browser is closed when another one's is launched, so
 * no renderer process, cache or crash state is shared across businesses.
 */
export class BrowserLauncher {
  private readonly held = new Map<string, Held>();

  constructor(private readonly opts: LaunchOptions = {}) {}

  async lease(tenant: string): Promise<BrowserLease> {
    let h = this.held.get(tenant);
    const alive = h ? await h.browser.then((b) => b.isConnected()).catch(() => false) : false;
    if (!h || !alive) {
      await this.closeIdle(tenant);
      const launching = launchBrowser(this.opts);
      h = { browser: launching, leases: 0 };
      this.held.set(tenant, h);
      const current = h;
      launching
        .then((b) => b.on('disconnected', () => this.held.get(tenant) === current && this.held.delete(tenant)))
        .catch(() => this.held.get(tenant) === current && this.held.delete(tenant));
    }
    const entry = h;
    entry.leases += 1;
    try {
      const browser = await entry.browser;
      let released = false;
      return {
        browser,
        release: () => {
          if (!released) entry.leases -= 1;
          released = true;
        },
      };
    } catch (err) {
      entry.leases -= 1;
      throw err;
    }
  }

  /** Closes every idle browser of other tenants. */
  private async closeIdle(except: string): Promise<void> {
    const idle = [...this.held].filter(([t, h]) => t !== except && h.leases === 0);
    for (const [t] of idle) this.held.delete(t);
    await Promise.all(
      idle.map(async ([, h]) => (await h.browser.catch(() => undefined))?.close().catch(() => undefined)),
    );
  }

  async close(): Promise<void> {
    const all = [...this.held.values()];
    this.held.clear();
    await Promise.all(all.map(async (h) => (await h.browser.catch(() => undefined))?.close().catch(() => undefined)));
  }
}
