import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintFromSeed } from '../../../lib/browser/fingerprint.js';
import { curvedPath, HUMAN_PRESETS } from '../../../lib/browser/humanize.js';
import { KnowledgeIndex } from '../../../lib/knowledge/index.js';

describe('fingerprintFromSeed', () => {
  it('is deterministic per seed and varies across seeds', () => {
    expect(fingerprintFromSeed('a')).toEqual(fingerprintFromSeed('a'));
    const many = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify(fingerprintFromSeed(`s${i}`))));
    expect(many.size).toBeGreaterThan(15);
  });

  it('keeps the user agent consistent with the platform', () => {
    for (let i = 0; i < 20; i++) {
      const fp = fingerprintFromSeed(`p${i}`);
      const expectedOs = fp.platform === 'Win32' ? 'Windows' : fp.platform === 'MacIntel' ? 'Macintosh' : 'Linux';
      expect(fp.userAgent).toContain(expectedOs);
    }
  });
});

describe('humanized movement', () => {
  it('ends on the target along a path that leaves the straight line', () => {
    const path = curvedPath({ x: 0, y: 0 }, { x: 400, y: 0 }, 20);
    expect(path.at(-1)).toEqual({ x: 400, y: 0 });
    expect(path).toHaveLength(20);
    // A bow of zero is possible only with Math.random() exactly 0.5; across runs the path curves.
    const maxOffset = Math.max(
      ...Array.from({ length: 5 }, () =>
        Math.max(...curvedPath({ x: 0, y: 0 }, { x: 400, y: 0 }, 20).map((p) => Math.abs(p.y))),
      ),
    );
    expect(maxOffset).toBeGreaterThan(1);
  });

  it('makes the careful preset slower than the default', () => {
    expect(HUMAN_PRESETS.careful.keyDelay[0]).toBeGreaterThan(HUMAN_PRESETS.default.keyDelay[1]);
    expect(HUMAN_PRESETS.careful.stepsPer100px).toBeGreaterThan(HUMAN_PRESETS.default.stepsPer100px);
  });
});

describe('the bundled knowledge index', () => {
  it('loads at least 20 valid sites and ranks by domain and goal', async () => {
    const kg = await KnowledgeIndex.load(resolve(import.meta.dirname, '../../../data/knowledgegraphindex'));
    expect(kg.entries.length).toBeGreaterThanOrEqual(20);
    expect(new Set(kg.entries.map((e) => e.site)).size).toBe(kg.entries.length);
    expect(kg.search('https://pypi.org/project/requests')[0]?.site).toBe('pypi');
    expect(kg.search('geocode an address')[0]?.site).toBe('openstreetmap');
    expect(kg.search('zzzz qqqq')).toEqual([]);
  });
});
