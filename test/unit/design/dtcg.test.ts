import { describe, expect, it } from 'vitest';
import { dtcgColor, parseBoxShadow, parseGradient, validateDtcg } from '../../../lib/design/dtcg.js';
import { buildTokens } from '../../../lib/design/tokens.js';

const color = { colorSpace: 'srgb', components: [1, 0, 0], hex: '#FF0000' };

describe('DTCG builders', () => {
  it('builds 2025.10 color objects with hex and alpha only when translucent', () => {
    expect(dtcgColor({ r: 1, g: 0.5, b: 0, a: 1 })).toEqual({
      colorSpace: 'srgb',
      components: [1, 0.5, 0],
      hex: '#FF8000',
    });
    expect(dtcgColor({ r: 0, g: 0, b: 0, a: 0.12 }).alpha).toBe(0.12);
  });

  it('parses computed box-shadow layers (color first, inset, missing spread)', () => {
    expect(parseBoxShadow('rgba(24, 24, 27, 0.12) 0px 4px 12px 0px, rgb(0, 0, 0) 0px 1px 2px 0px inset')).toEqual([
      {
        color: { colorSpace: 'srgb', components: [0.0941, 0.0941, 0.1059], alpha: 0.12, hex: '#18181B' },
        offsetX: { value: 0, unit: 'px' },
        offsetY: { value: 4, unit: 'px' },
        blur: { value: 12, unit: 'px' },
        spread: { value: 0, unit: 'px' },
      },
      {
        color: { colorSpace: 'srgb', components: [0, 0, 0], hex: '#000000' },
        offsetX: { value: 0, unit: 'px' },
        offsetY: { value: 1, unit: 'px' },
        blur: { value: 2, unit: 'px' },
        spread: { value: 0, unit: 'px' },
        inset: true,
      },
    ]);
    expect(parseBoxShadow('none')).toBeUndefined();
  });

  it('parses gradients into stops with positions in 0..1, spreading unpositioned stops', () => {
    expect(
      parseGradient('linear-gradient(135deg, rgb(79, 70, 229) 0%, rgb(236, 72, 153) 100%)')?.stops.map((s) => [
        s.color.hex,
        s.position,
      ]),
    ).toEqual([
      ['#4F46E5', 0],
      ['#EC4899', 1],
    ]);
    expect(
      parseGradient('radial-gradient(rgb(0, 0, 0), rgb(255, 0, 0), rgb(255, 255, 255))')?.stops.map((s) => s.position),
    ).toEqual([0, 0.5, 1]);
    expect(parseGradient('url(x.png)')).toBeUndefined();
  });
});

describe('validateDtcg', () => {
  it('accepts a document with every type we emit, inherited group types and aliases', () => {
    const doc = {
      color: { $type: 'color', brand: { $value: color }, link: { $value: '{color.brand}' } },
      space: { $type: 'dimension', s: { $value: { value: 0.5, unit: 'rem' } } },
      motion: { fast: { $type: 'duration', $value: { value: 150, unit: 'ms' } } },
      shadow: {
        card: {
          $type: 'shadow',
          $value: [
            {
              color,
              offsetX: { value: 0, unit: 'px' },
              offsetY: { value: 4, unit: 'px' },
              blur: { value: 8, unit: 'px' },
              spread: { value: 0, unit: 'px' },
            },
          ],
        },
      },
      gradient: {
        hero: {
          $type: 'gradient',
          $value: [
            { color, position: 0 },
            { color, position: 1 },
          ],
        },
      },
    };
    expect(validateDtcg(doc)).toEqual([]);
  });

  it.each([
    ['a token without any type', { a: { $value: 1 } }, 'no $type'],
    ['an unknown type', { a: { $type: 'colour', $value: 1 } }, 'unknown $type'],
    ['a CSS string as a color', { a: { $type: 'color', $value: '#ff0000' } }, 'colorSpace'],
    ['a bad hex', { a: { $type: 'color', $value: { ...color, hex: 'red' } } }, 'hex'],
    ['an em dimension', { a: { $type: 'dimension', $value: { value: 1, unit: 'em' } } }, 'unit:px|rem'],
    ['a string dimension', { a: { $type: 'dimension', $value: '4px' } }, 'expected {value'],
    ['a duration in px', { a: { $type: 'duration', $value: { value: 1, unit: 'px' } } }, 'unit:ms|s'],
    ['a gradient position of 50', { a: { $type: 'gradient', $value: [{ color, position: 50 }] } }, 'position'],
    [
      'a shadow without blur',
      {
        a: {
          $type: 'shadow',
          $value: {
            color,
            offsetX: { value: 0, unit: 'px' },
            offsetY: { value: 0, unit: 'px' },
            spread: { value: 0, unit: 'px' },
          },
        },
      },
      'blur',
    ],
    ['a dotted name', { 'a.b': { $type: 'number', $value: 1 } }, 'may not contain'],
  ])('rejects %s', (_name, doc, msg) => {
    expect(validateDtcg(doc).join('\n')).toContain(msg);
  });
});

describe('buildTokens', () => {
  it('turns computed histograms and variables into scales and a valid DTCG file', () => {
    const tokens = buildTokens({
      spacing: { '16': 5, '8': 2, '32': 1 },
      radii: { '12px': 3, '50%': 1 },
      shadows: { 'rgba(0, 0, 0, 0.1) 0px 2px 4px 0px': 2 },
      gradients: { 'url("a.png"), linear-gradient(90deg, rgb(224, 231, 255), rgb(255, 255, 255))': 1 },
      durations: { '300': 1, '150': 2 },
      vars: [
        { name: '--brand', value: 'color-mix(in srgb, #4f46e5 80%, #000)', color: 'color(srgb 0.247 0.22 0.718)' },
        { name: '--space-4', value: '1rem' },
        { name: '--fast', value: '150ms' },
        { name: '--font', value: 'Inter, sans-serif' },
      ],
    });
    expect(tokens.spacing.map((s) => s.value)).toEqual([8, 16, 32]);
    expect(tokens.motionDurationsMs).toEqual([150, 300]);
    expect(tokens.cssVariables).toHaveLength(4);
    expect(validateDtcg(tokens.dtcg)).toEqual([]);
    expect(tokens.dtcg).toMatchObject({
      color: { brand: { $value: { hex: '#3F38B7' } } },
      dimension: { 'space-4': { $value: { value: 1, unit: 'rem' } } },
      radius: { 'radius-1': { $value: { value: 12, unit: 'px' } } },
      duration: { fast: { $value: { value: 150, unit: 'ms' } }, 'duration-1': { $value: { value: 150, unit: 'ms' } } },
      gradient: { 'gradient-1': { $value: [{ position: 0 }, { position: 1 }] } },
    });
  });
});
