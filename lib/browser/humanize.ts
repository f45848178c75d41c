import type { Page } from 'playwright-core';

/**
 * Human-like input: the mouse travels along a curved (cubic Bézier) path with easing and
 * jitter, and typing has per-key delays. `careful` is slower everywhere, for sites that
 * score interaction speed.
 */
export type HumanPreset = 'default' | 'careful';

interface PresetTiming {
  /** Mouse path points per 100 px travelled. */
  stepsPer100px: number;
  /** Pause range between mouse path points (ms). */
  stepDelay: [number, number];
  /** Delay range between key presses (ms). */
  keyDelay: [number, number];
  /** Pause before a click once the pointer has arrived (ms). */
  settle: [number, number];
}

export const HUMAN_PRESETS: Record<HumanPreset, PresetTiming> = {
  default: { stepsPer100px: 4, stepDelay: [2, 8], keyDelay: [25, 70], settle: [30, 90] },
  careful: { stepsPer100px: 8, stepDelay: [8, 20], keyDelay: [80, 180], settle: [120, 300] },
};

const between = ([lo, hi]: [number, number]): number => lo + Math.random() * (hi - lo);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface Point {
  x: number;
  y: number;
}

/** Points of a curved path from `from` to `to`; exported for unit tests of its shape. */
export function curvedPath(from: Point, to: Point, steps: number): Point[] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  // Control points pushed sideways from the straight line make the path bow like a wrist arc.
  const bow = (Math.random() - 0.5) * 0.6;
  const c1 = { x: from.x + dx * 0.3 - dy * bow, y: from.y + dy * 0.3 + dx * bow };
  const c2 = { x: from.x + dx * 0.7 - dy * bow, y: from.y + dy * 0.7 + dx * bow };
  const points: Point[] = [];
  for (let i = 1; i <= steps; i++) {
    const linear = i / steps;
    // Ease in-out: slow start, fast middle, slow landing.
    const t = linear < 0.5 ? 2 * linear * linear : 1 - (-2 * linear + 2) ** 2 / 2;
    const u = 1 - t;
    points.push({
      x: u ** 3 * from.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t ** 3 * to.x,
      y: u ** 3 * from.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t ** 3 * to.y,
    });
  }
  return points;
}

export class Humanizer {
  private position: Point = { x: 0, y: 0 };

  constructor(readonly preset: HumanPreset) {}

  private get timing(): PresetTiming {
    return HUMAN_PRESETS[this.preset];
  }

  async moveTo(page: Page, target: Point): Promise<void> {
    const distance = Math.hypot(target.x - this.position.x, target.y - this.position.y);
    const steps = Math.max(5, Math.round((distance / 100) * this.timing.stepsPer100px));
    for (const p of curvedPath(this.position, target, steps)) {
      await page.mouse.move(p.x, p.y);
      await sleep(between(this.timing.stepDelay));
    }
    this.position = target;
  }

  /** Moves to a random point inside the box (people rarely hit the exact centre), then clicks. */
  async click(page: Page, box: { x: number; y: number; width: number; height: number }): Promise<void> {
    const target = {
      x: box.x + box.width * (0.3 + Math.random() * 0.4),
      y: box.y + box.height * (0.3 + Math.random() * 0.4),
    };
    await this.moveTo(page, target);
    await sleep(between(this.timing.settle));
    await page.mouse.down();
    await sleep(between([40, 110]));
    await page.mouse.up();
  }

  async type(page: Page, text: string): Promise<void> {
    for (const ch of text) {
      await page.keyboard.type(ch);
      await sleep(between(this.timing.keyDelay));
    }
  }
}
