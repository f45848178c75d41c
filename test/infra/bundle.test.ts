import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESM_REQUIRE_BANNER, PROJECT_ROOT, RUNTIME_PROVIDED_MODULES } from '../../infra/node-function.js';

/** The aim of issue 3: each API handler under 300 KB minified. */
const BUDGET_BYTES = 300 * 1024;

/** Biggest contributors by package, for an actionable failure message. */
function topInputs(metafile: Metafile, n = 5): string {
  const by = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const key = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.split('/').slice(0, 2).join('/');
      by.set(key, (by.get(key) ?? 0) + input.bytesInOutput);
    }
  }
  return [...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ${Math.round(v / 1024)} KB`)
    .join(', ');
}

describe('API handler bundle', () => {
  it("bundles a real handler with the stack's esbuild options, under budget", async () => {
    // Prepare: the same options NodejsFunction passes to esbuild (infra/node-function.ts).
    const entry = join(PROJECT_ROOT, 'functions', 'api', 'get-task.ts');
    // Act
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      mainFields: ['module', 'main'],
      banner: { js: ESM_REQUIRE_BANNER },
      external: RUNTIME_PROVIDED_MODULES,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    // Assess
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).toMatch(/as handler\}/);
    expect(
      code.length,
      `get-task.ts is ${Math.round(code.length / 1024)} KB; largest: ${topInputs(result.metafile)}`,
    ).toBeLessThan(BUDGET_BYTES);
  });
});
