import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The real-site corpus: pages nobody on this project wrote, fetched from Debian and npm
 * by `npm run corpus:real` into an ignored cache. Only the manifest (what to fetch) and
 * our ground truth about the pages are committed; this module reads and checks both.
 */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const CACHE_DIR = join(REPO_ROOT, '.cache', 'corpus');
/** Written last by the fetch script: its presence means every page of the manifest is there. */
export const COMPLETE_STAMP = join(CACHE_DIR, '.complete');
/** Our own pages for packages that ship CSS but no HTML; served next to the cache. */
export const OWN_PAGES_DIR = join(REPO_ROOT, 'test', 'real', 'pages');

const version = z.string().regex(/^[\w.+~:-]+$/, 'a plain version string');
const pkgName = z.string().regex(/^(@[\w.-]+\/)?[\w.+-]+$/, 'a package name');

export const ManifestSchema = z.object({
  debian: z.array(z.object({ name: pkgName, version })).min(1),
  npm: z.array(z.object({ name: pkgName, version })),
  pages: z
    .array(
      z.object({
        id: z.string().regex(/^[a-z0-9-]+$/),
        /** `debian:<package>`, `npm:<package>` or `own:<package>` (our page over the package's CSS). */
        source: z.string().regex(/^(debian|npm|own):/),
        /** URL path below the corpus server's root. */
        path: z.string().regex(/^\/[^?#]*$/),
        theme: z.string().min(1),
      }),
    )
    .min(20),
});
export type Manifest = z.infer<typeof ManifestSchema>;
export type CorpusPage = Manifest['pages'][number];

const hex = z.string().regex(/^#[0-9A-F]{6}$/);
export const LogoTruthSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  /** A text-only wordmark: `found: false`, or `type: "text"` with this text in `alt`. */
  z.object({ kind: z.literal('text'), text: z.string().min(1) }),
  z.object({ kind: z.enum(['img', 'background']), srcEndsWith: z.string().min(1) }),
  z.object({ kind: z.literal('svg'), svgIncludes: z.string().min(1) }),
]);
export type LogoTruth = z.infer<typeof LogoTruthSchema>;

export const PageTruthSchema = z.object({
  text: hex,
  primary: z.array(hex).min(1),
  background: hex,
  bodyFamily: z.string().min(1),
  headingFamily: z.string().min(1),
  logo: LogoTruthSchema,
  /** How values that were not obvious were decided. */
  notes: z.string().optional(),
});
export type PageTruth = z.infer<typeof PageTruthSchema>;
export const GroundTruthFileSchema = z.record(z.string(), PageTruthSchema);

export function loadManifest(): Manifest {
  return ManifestSchema.parse(JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'real', 'corpus.json'), 'utf8')));
}

export function loadGroundTruth(): Record<string, PageTruth> {
  return GroundTruthFileSchema.parse(
    JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'real', 'ground-truth.json'), 'utf8')),
  );
}

export function cachePresent(): boolean {
  return existsSync(COMPLETE_STAMP);
}

export { resolveInRoot } from '../support/fixture-server.js';
