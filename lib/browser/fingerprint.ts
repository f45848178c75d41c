import { createHash } from 'node:crypto';

/**
 * A fingerprint seed deterministically picks a coherent set of browser surfaces: the same
 * seed always gives the same identity (so a site sees one returning visitor), different
 * seeds give different ones. Values are drawn from common real-world combinations so a
 * session does not stand out.
 */
export interface Fingerprint {
  seed: string;
  userAgent: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  locale: string;
  timezoneId: string;
  colorScheme: 'light' | 'dark';
  platform: string;
  hardwareConcurrency: number;
  deviceMemory: number;
}

const CHROME_VERSIONS = ['138.0.0.0', '139.0.0.0', '140.0.0.0', '141.0.0.0'];
const PLATFORMS = [
  { ua: 'Windows NT 10.0; Win64; x64', platform: 'Win32' },
  { ua: 'Macintosh; Intel Mac OS X 10_15_7', platform: 'MacIntel' },
  { ua: 'X11; Linux x86_64', platform: 'Linux x86_64' },
] as const;
const VIEWPORTS = [
  { width: 1920, height: 1080 },
  { width: 1536, height: 864 },
  { width: 1440, height: 900 },
  { width: 1366, height: 768 },
  { width: 1280, height: 800 },
] as const;
const LOCALES = [
  { locale: 'en-US', timezones: ['America/New_York', 'America/Chicago', 'America/Los_Angeles'] },
  { locale: 'en-GB', timezones: ['Europe/London'] },
  { locale: 'de-DE', timezones: ['Europe/Berlin'] },
  { locale: 'fr-FR', timezones: ['Europe/Paris'] },
  { locale: 'es-ES', timezones: ['Europe/Madrid'] },
] as const;

/** A small deterministic stream of numbers from the seed (SHA-256 in counter mode). */
function seededPicker(seed: string): <T>(items: readonly T[]) => T {
  let counter = 0;
  return <T>(items: readonly T[]): T => {
    const digest = createHash('sha256').update(`${seed}:${counter++}`).digest();
    const item = items[digest.readUInt32BE(0) % items.length];
    if (item === undefined) throw new Error('empty choice list');
    return item;
  };
}

export function fingerprintFromSeed(seed: string): Fingerprint {
  const pick = seededPicker(seed);
  const os = pick(PLATFORMS);
  const version = pick(CHROME_VERSIONS);
  const place = pick(LOCALES);
  return {
    seed,
    userAgent: `Mozilla/5.0 (${os.ua}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36`,
    viewport: { ...pick(VIEWPORTS) },
    deviceScaleFactor: pick([1, 1, 1.25, 1.5, 2]),
    locale: place.locale,
    timezoneId: pick(place.timezones),
    colorScheme: pick(['light', 'light', 'dark'] as const),
    platform: os.platform,
    hardwareConcurrency: pick([4, 8, 8, 12, 16]),
    deviceMemory: pick([4, 8, 8, 16]),
  };
}

/** Surfaces BrowserContext options cannot set; run in every page before its scripts. */
export function fingerprintInitScript(fp: Fingerprint): string {
  const values = JSON.stringify({
    platform: fp.platform,
    hardwareConcurrency: fp.hardwareConcurrency,
    deviceMemory: fp.deviceMemory,
  });
  return `(() => { const v = ${values};
    for (const [k, val] of Object.entries(v)) {
      Object.defineProperty(Navigator.prototype, k, { get: () => val, configurable: true });
    }
  })();`;
}
