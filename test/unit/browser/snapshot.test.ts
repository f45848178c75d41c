import { describe, expect, it } from 'vitest';
import {
  capSnapshot,
  collectRefs,
  filterSnapshot,
  parseSnapshot,
  TRUNCATION_MARKER,
} from '../../../lib/browser/snapshot.js';

const YAML = `- main [ref=e2]:
  - heading "Shop \\"best\\"" [level=1] [ref=e3]
  - list [ref=e4]:
    - listitem [ref=e5]:
      - link "Red shoes" [ref=e6] [cursor=pointer]:
        - /url: /red
    - listitem [ref=e7]: Blue hat
  - button "Checkout" [ref=e8]`;

describe('snapshot parsing and filters', () => {
  it('records role and name of every ref', () => {
    const refs = collectRefs(parseSnapshot(YAML));
    expect(refs.get('e3')).toEqual({ role: 'heading', name: 'Shop "best"' });
    expect(refs.get('e6')).toEqual({ role: 'link', name: 'Red shoes' });
    expect(refs.get('e7')).toEqual({ role: 'listitem', name: '' });
    expect(refs.size).toBe(7);
  });

  it("contains keeps matches with their ancestors and the match's properties", () => {
    expect(filterSnapshot(parseSnapshot(YAML), { contains: 'red' })).toBe(`- main [ref=e2]:
  - list [ref=e4]:
    - listitem [ref=e5]:
      - link "Red shoes" [ref=e6] [cursor=pointer]:
        - /url: /red`);
  });

  it('roles keeps only those roles, flat', () => {
    expect(filterSnapshot(parseSnapshot(YAML), { roles: ['link', 'BUTTON'] }))
      .toBe(`- link "Red shoes" [ref=e6] [cursor=pointer]:
  - /url: /red
- button "Checkout" [ref=e8]`);
  });

  it('both filters must hold', () => {
    expect(filterSnapshot(parseSnapshot(YAML), { roles: ['listitem'], contains: 'blue' })).toBe(
      '- listitem [ref=e7]: Blue hat',
    );
  });

  it('caps at a line boundary with the narrowing marker', () => {
    const { text, truncated } = capSnapshot(YAML, 60);
    expect(truncated).toBe(true);
    expect(text).toContain(TRUNCATION_MARKER);
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .every((l) => YAML.includes(l)),
    ).toBe(true);
    expect(capSnapshot(YAML, 10_000)).toEqual({ text: YAML, truncated: false });
  });
});
