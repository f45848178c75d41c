import { describe, expect, it } from 'vitest';
import {
  blend,
  contrastRatio,
  deltaE,
  isLargeText,
  parseCssColor,
  toHex,
  toRgbString,
  wcag,
} from '../../../lib/design/color-math.js';

const hex = (s: string): string => toHex(parseCssColor(s)!);

describe('parseCssColor: forms Chromium reports from getComputedStyle', () => {
  it.each([
    ['rgb(37, 99, 235)', '#2563EB'],
    ['rgba(37, 99, 235, 0.5)', '#2563EB'],
    ['rgb(37 99 235 / 50%)', '#2563EB'],
    ['#fff', '#FFFFFF'],
    ['#2563ebcc', '#2563EB'],
    ['hsl(240 6% 10%)', '#18181B'],
    ['hsl(0, 100%, 50%)', '#FF0000'],
    // Values checked against Chromium's own canvas rendering of the same CSS.
    ['oklch(0.78 0.13 190)', '#21D1CA'],
    ['oklch(0.63 0.2 25)', '#E94646'],
    ['oklab(0.628 0.2249 0.1258)', '#FF0000'],
    ['color(srgb 0.247059 0.219608 0.717647)', '#3F38B7'],
    ['lab(53.24 80.09 67.2)', '#FF0000'],
    ['color(display-p3 1 0 0)', '#FF0000'],
  ])('%s → %s', (input, want) => {
    expect(deltaE(parseCssColor(input)!, parseCssColor(want)!)).toBeLessThan(1);
  });

  it('keeps alpha; color(srgb r g b) has no alpha in its fourth token', () => {
    expect(parseCssColor('rgba(0, 0, 0, 0.25)')?.a).toBeCloseTo(0.25);
    expect(parseCssColor('color(srgb 1 0 0 / 0.5)')?.a).toBeCloseTo(0.5);
    expect(parseCssColor('color(srgb 1 0 0)')?.a).toBe(1);
    expect(parseCssColor('transparent')?.a).toBe(0);
  });

  it('rejects what it does not know', () => {
    expect(parseCssColor('currentcolor')).toBeUndefined();
    expect(parseCssColor('#12345')).toBeUndefined();
    expect(parseCssColor('color(rec9999 1 0 0)')).toBeUndefined();
  });
});

describe('blending, distance and contrast', () => {
  it('blends translucent colors over their background (source-over)', () => {
    const over = (top: string, bottom: string) => blend(parseCssColor(top)!, parseCssColor(bottom)!);
    expect(toHex(over('rgba(0,0,0,0.5)', '#ffffff'))).toBe('#808080');
    // Chromium's canvas gives these (8-bit rounding at each step may differ by one unit).
    expect(deltaE(over('rgba(255,255,255,0.06)', '#0b1020'), parseCssColor('#191E2D')!)).toBeLessThan(0.6);
    expect(deltaE(over('rgba(219,39,119,0.15)', '#ffffff'), parseCssColor('#FADFEB')!)).toBeLessThan(0.6);
    expect(over('rgba(0,0,0,0.5)', 'rgba(255,255,255,0.5)').a).toBeCloseTo(0.75);
  });

  it('formats rgb() without spaces and clamps out-of-gamut values', () => {
    expect(toRgbString({ r: 1.2, g: -0.1, b: 0.5, a: 1 })).toBe('rgb(255,0,128)');
    expect(hex('oklch(0.9 0.4 150)')).toMatch(/^#[0-9A-F]{6}$/);
  });

  it('ΔE is ~0 for equal colors, small for near-duplicates and large for different ones', () => {
    expect(deltaE(parseCssColor('#2563eb')!, parseCssColor('rgb(37,99,235)')!)).toBeCloseTo(0, 5);
    expect(deltaE(parseCssColor('#2563eb')!, parseCssColor('#2664ea')!)).toBeLessThan(1);
    expect(deltaE(parseCssColor('#2563eb')!, parseCssColor('#dc2626')!)).toBeGreaterThan(20);
  });

  it('computes WCAG contrast with the large-text thresholds', () => {
    expect(contrastRatio(parseCssColor('#000')!, parseCssColor('#fff')!)).toBeCloseTo(21, 5);
    const ratio = contrastRatio(parseCssColor('#767676')!, parseCssColor('#ffffff')!);
    expect(ratio).toBeCloseTo(4.54, 2);
    expect(wcag(ratio, false)).toEqual({ passesAA: true, passesAAA: false });
    expect(wcag(3.2, false)).toEqual({ passesAA: false, passesAAA: false });
    expect(wcag(3.2, true)).toEqual({ passesAA: true, passesAAA: false });
    expect(wcag(4.6, true)).toEqual({ passesAA: true, passesAAA: true });
    expect(isLargeText(24, 400)).toBe(true);
    expect(isLargeText(19, 700)).toBe(true);
    expect(isLargeText(19, 400)).toBe(false);
    expect(isLargeText(18, 700)).toBe(false);
  });
});
