import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * One `npm test` runs every tier; each tier is a project so it can also run alone
 * (`npm run test:integration` against LocalStack, say).
 */
const tier = (name: string, opts: { timeout?: number; sequential?: boolean } = {}) => ({
  test: {
    name,
    include: [`test/${name}/**/*.test.ts`],
    environment: 'node' as const,
    testTimeout: opts.timeout ?? 20_000,
    hookTimeout: 60_000,
    // Browser tiers share 2 cores with Chromium: one file at a time keeps timings honest.
    fileParallelism: !opts.sequential,
  },
});

export default defineConfig({
  test: {
    projects: [
      tier('unit'),
      tier('integration', { timeout: 30_000 }),
      tier('e2e', { timeout: 60_000, sequential: true }),
      tier('infra', { timeout: 120_000, sequential: true }),
      tier('browser', { timeout: 60_000, sequential: true }),
      tier('design', { timeout: 120_000, sequential: true }),
      tier('mcp', { timeout: 120_000, sequential: true }),
      tier('agent', { timeout: 120_000, sequential: true }),
      // Real third-party pages live in an ignored cache filled by `npm run corpus:real`;
      // without it there is nothing to run, so the project is not configured at all.
      ...(existsSync(new URL('.cache/corpus/.complete', import.meta.url))
        ? [tier('real', { timeout: 300_000, sequential: true })]
        : []),
      // The TypeScript and Python clients against the local runtime over HTTP.
      tier('clients', { timeout: 120_000, sequential: true }),
    ],
  },
});
