import type { NetworkGuard } from './network-guard.js';

/**
 * The extractors fetch asset bytes through the context's API request client, which the
 * browser's route guard does not see. Until that fetch checks URLs itself, this pass
 * makes sure an asset fetched from a refused address is never handed to the caller:
 * its `s3Key` and download links are dropped from the result.
 */
const SOURCE_FIELDS = ['originalSrc', 'originalFaceUrl', 'src', 'faceUrl'] as const;
const LINK_FIELDS = ['s3Key', 'downloadUrl', 'signedUrl'] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Returns the number of assets whose links were removed; mutates `results` in place. */
export async function scrubRefusedAssets(results: unknown, guard: NetworkGuard): Promise<number> {
  let removed = 0;
  const visit = async (node: unknown, depth: number): Promise<void> => {
    if (depth > 8) return; // result shapes are shallow; bound the walk anyway
    if (Array.isArray(node)) {
      for (const child of node) await visit(child, depth + 1);
      return;
    }
    if (!isRecord(node)) return;
    if (LINK_FIELDS.some((f) => node[f] !== undefined)) {
      const source = SOURCE_FIELDS.map((f) => node[f]).find((v): v is string => typeof v === 'string' && /^https?:/i.test(v));
      if (source && (await guard.check(source))) {
        for (const f of LINK_FIELDS) delete node[f];
        removed++;
      }
    }
    for (const value of Object.values(node)) if (typeof value === 'object') await visit(value, depth + 1);
  };
  await visit(results, 0);
  return removed;
}
