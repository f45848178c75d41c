import { describe, expect, it } from 'vitest';
import { buildPalette, effectiveBackgrounds, type ColorNode } from '../../../lib/design/palette.js';
import { toHex } from '../../../lib/design/color-math.js';

const node = (o: Partial<ColorNode> & { p: number }): ColorNode => ({
  vis: true,
  bg: 'rgba(0, 0, 0, 0)',
  fg: 'rgb(0, 0, 0)',
  border: null,
  fill: null,
  stroke: null,
  text: 0,
  fs: 16,
  fw: 400,
  area: 100,
  op: 1,
  ui: false,
  ...o,
});

describe('effectiveBackgrounds', () => {
  it('composites translucent layers over their ancestors, and the root over white', () => {
    const nodes = [
      node({ p: -1, bg: 'rgb(11, 16, 32)' }),
      node({ p: 0, bg: 'rgba(255, 255, 255, 0.5)' }),
      node({ p: 1 }),
      node({ p: -1, bg: 'rgba(0, 0, 0, 0.5)' }),
    ];
    expect(effectiveBackgrounds(nodes).map(toHex)).toEqual(['#0B1020', '#858890', '#858890', '#808080']);
  });

  it('applies element opacity to its own background', () => {
    const nodes = [node({ p: -1, bg: 'rgb(255, 255, 255)' }), node({ p: 0, bg: 'rgb(0, 0, 0)', op: 0.5 })];
    expect(toHex(effectiveBackgrounds(nodes)[1]!)).toBe('#808080');
  });
});

describe('buildPalette', () => {
  const page: ColorNode[] = [
    node({ p: -1, bg: 'rgb(255, 255, 255)', area: 1_000_000 }),
    node({ p: 0, fg: 'rgb(17, 24, 39)', text: 400 }),
    node({ p: 0, fg: 'rgb(18, 24, 40)', text: 20 }), // near-duplicate of the text color
    node({ p: 0, bg: 'rgb(37, 99, 235)', fg: 'rgb(255, 255, 255)', text: 10, ui: true, button: true }),
    node({ p: 0, fg: 'rgb(37, 99, 235)', text: 8, ui: true, link: true }),
    node({ p: 0, fg: 'rgb(220, 38, 38)', text: 30 }),
    node({ p: 0, fg: 'rgb(170, 170, 170)', text: 50, fs: 14 }),
    node({ p: 0, fg: 'rgb(22, 163, 74)', text: 5, vis: false }),
  ];

  it('merges near-duplicates, assigns roles and ignores invisible elements', () => {
    const { colors } = buildPalette(page, []);
    const byHex = Object.fromEntries(colors.map((c) => [c.hex, c]));
    expect(Object.keys(byHex).sort()).toEqual(['#111827', '#2563EB', '#AAAAAA', '#DC2626', '#FFFFFF'].sort());
    expect(byHex['#111827']).toMatchObject({ role: 'text', count: 2, rgb: 'rgb(17,24,39)' });
    expect(byHex['#FFFFFF']?.role).toBe('background');
    expect(byHex['#2563EB']).toMatchObject({ role: 'primary', count: 2 });
    // Red text with nothing naming it an error is just red.
    expect(byHex['#DC2626']?.role).toBe('neutral');
    expect(byHex['#AAAAAA']?.role).toBe('neutral');
  });

  it('lets CSS variable names decide roles and adds opaque variable colors', () => {
    const { colors } = buildPalette(page, [
      { name: '--color-brand', value: 'rgb(220, 38, 38)' },
      { name: '--success', value: 'oklch(0.6 0.15 150)' },
      { name: '--overlay', value: 'rgba(0, 0, 0, 0.4)' },
    ]);
    expect(colors.find((c) => c.hex === '#DC2626')?.role).toBe('primary');
    expect(colors.find((c) => c.role === 'success')?.count).toBe(0);
    expect(colors).toHaveLength(6);
  });

  it('decides roles from evidence: canvas coverage, body copy, links, a named brand and states', () => {
    // Prepare: a white page under a full-width blue header band, body copy in #222, many
    // more characters of links in #0072AA, an error message and a success class.
    const nodes = [
      node({ p: -1, bg: 'rgba(0, 0, 0, 0)', area: 1_000_000, cover: 140 }),
      node({ p: 0, bg: 'rgb(10, 80, 122)', area: 128_000, bar: true, cover: 20 }),
      node({ p: 0, fg: 'rgb(34, 34, 34)', text: 300, copy: 300 }),
      ...Array.from({ length: 6 }, () => node({ p: 0, fg: 'rgb(0, 114, 170)', text: 300, link: true })),
      node({ p: 0, fg: 'rgb(200, 30, 30)', text: 40, sem: 'error' }),
      node({ p: 0, fg: 'rgb(22, 163, 74)', text: 40, sem: 'success' }),
      node({ p: 0, fg: 'rgb(230, 160, 0)', text: 40 }),
    ];
    // Act
    const { colors } = buildPalette(nodes, []);
    const role = (hex: string) => colors.find((c) => c.hex === hex)?.role;
    // Assess
    expect(role('#FFFFFF')).toBe('background');
    expect(role('#222222')).toBe('text');
    expect(role('#0072AA')).toBe('primary');
    expect(role('#0A507A')).toBe('neutral');
    expect(role('#C81E1E')).toBe('error');
    expect(role('#16A34A')).toBe('success');
    expect(role('#E6A000')).toBe('neutral');
  });

  it('never makes the body-text colour primary, even when a brand variable names it', () => {
    const nodes = [
      node({ p: -1, bg: 'rgb(255, 255, 255)', area: 1_000_000, cover: 100 }),
      node({ p: 0, fg: 'rgb(51, 51, 51)', text: 500, copy: 500 }),
      node({ p: 0, fg: 'rgb(62, 122, 56)', text: 20, link: true }),
    ];
    const { colors } = buildPalette(nodes, [
      { name: '--color-brand-primary', value: 'rgb(51, 51, 51)' },
      { name: '--color-links', value: 'rgb(62, 122, 56)' },
      { name: '--bs-primary-bg-subtle', value: 'rgb(207, 226, 255)' },
    ]);
    expect(colors.find((c) => c.role === 'text')?.hex).toBe('#333333');
    expect(colors.find((c) => c.role === 'primary')?.hex).toBe('#3E7A38');
    expect(colors.find((c) => c.hex === '#CFE2FF')?.role).toBe('neutral');
  });

  it('reports text/background pairs failing WCAG with real ratios and large-text thresholds', () => {
    const { contrastIssues } = buildPalette(
      [
        node({ p: -1, bg: 'rgb(255, 255, 255)', area: 1000 }),
        node({ p: 0, fg: 'rgb(170, 170, 170)', text: 10, fs: 14 }),
        node({ p: 0, fg: 'rgb(130, 130, 130)', text: 10, fs: 28 }),
        node({ p: 0, fg: 'rgb(0, 0, 0)', text: 10 }),
      ],
      [],
    );
    expect(contrastIssues).toEqual([
      { fg: '#AAAAAA', bg: '#FFFFFF', ratio: 2.32, passesAA: false, passesAAA: false },
      { fg: '#828282', bg: '#FFFFFF', ratio: 3.84, passesAA: true, passesAAA: false },
    ]);
  });
});
