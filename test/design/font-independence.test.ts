import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../lib/browser/chromium.js';
import { extractDesign, prepareDesignPage } from '../../lib/design/extract.js';
import { networkPolicy } from '../../lib/browser/network/guard.js';
import type { FontEntry } from '../../lib/design/fonts.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

/** Fixture pages live on loopback: the guard allows private addresses here (the guard has tests of its own). */
const LOCAL_NETWORK = networkPolicy(true);

/**
 * The fonts extractor must give the same declared answers whatever fonts the worker has
 * (a laptop, CI, Lambda): one page extracted by two Chromiums whose fontconfig sees two
 * different font sets, the machine's own and a directory holding a single font.
 */
const SYSTEM_FONTS = '/usr/share/fonts';
const LONE_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';

let server: FixtureServer;
let work: string;

function fontconfig(name: string, dir: string): string {
  const file = join(work, `${name}.conf`);
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<fontconfig><dir>${dir}</dir><cachedir>${join(work, `${name}-cache`)}</cachedir></fontconfig>\n`,
  );
  return file;
}

async function fontsUnder(fontconfigFile: string): Promise<FontEntry[]> {
  // The launcher passes Chromium only an allow-list of the host environment; fontconfig's two variables are on it.
  const browser = await launchBrowser({
    hostEnv: () => ({ ...process.env, FONTCONFIG_FILE: fontconfigFile, FONTCONFIG_PATH: work }),
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const url = `${server.url}/design/_stacks/`;
    await prepareDesignPage(page, url, { timeoutMs: 15_000 });
    const { results } = await extractDesign(page, {
      url,
      extractors: ['fonts'],
      assetPrefix: 'biz/stacks/',
      network: LOCAL_NETWORK,
    });
    return (results.fonts as { fonts: FontEntry[] }).fonts;
  } finally {
    await browser.close();
  }
}

beforeAll(async () => {
  // The lone font comes from fonts-dejavu-core, which .ci/run installs.
  expect(existsSync(LONE_FONT), `${LONE_FONT} (fonts-dejavu-core)`).toBe(true);
  server = await startFixtureServer();
  work = mkdtempSync(join(tmpdir(), 'bts-fontsets-'));
  mkdirSync(join(work, 'lone'));
  copyFileSync(LONE_FONT, join(work, 'lone', 'DejaVuSansMono.ttf'));
});

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('declared fonts under two font sets', () => {
  it('gives the same family, usage, stack, weights and source; only the painted family differs', async () => {
    // Act
    const full = await fontsUnder(fontconfig('full', SYSTEM_FONTS));
    const lone = await fontsUnder(fontconfig('lone', join(work, 'lone')));
    // Assess
    const declared = (fonts: FontEntry[]) =>
      fonts.map((f) => ({
        family: f.family,
        usage: f.usage,
        usages: f.usages,
        stack: f.stack,
        weights: f.weights,
        source: f.source,
        count: f.count,
      }));
    expect(declared(lone)).toEqual(declared(full));
    expect(declared(full)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          family: 'Georgia',
          usage: 'body',
          stack: ['Georgia', 'DejaVu Serif', 'serif'],
          source: 'system',
        }),
        expect.objectContaining({ family: 'Helvetica Neue', usage: 'heading', source: 'system' }),
        expect.objectContaining({ family: 'Source Serif 4', source: 'self-hosted' }),
        expect.objectContaining({ family: 'Menlo', usage: 'code', source: 'system' }),
      ]),
    );
    // The two font sets really differ: the lone set can only paint body text in DejaVu Sans Mono.
    const body = (fonts: FontEntry[]) => fonts.find((f) => f.family === 'Georgia')?.rendered;
    expect(body(lone)).toBe('DejaVu Sans Mono');
    expect(body(full)).not.toBe('DejaVu Sans Mono');
    expect(full.find((f) => f.family === 'Source Serif 4')?.rendered).toBe('Source Serif 4');
  });
});
