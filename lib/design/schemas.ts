import * as z from 'zod';
import { EXTRACTORS, type ExtractorName } from '../tasks/model.js';
import { EndUserIdSchema, httpUrl } from '../validation.js';

/** POST /v1/design/extract and its path-scoped alias (SPEC §4.3). */
export const DesignBody = z.object({
  url: httpUrl('url'),
  endUserId: EndUserIdSchema,
  extractors: z.array(z.unknown(), { error: 'extractors must be an array of extractor names' }).optional(),
  enableIpRotation: z.boolean({ error: 'enableIpRotation must be a boolean' }).optional(),
});
export type DesignInput = z.infer<typeof DesignBody>;

export const isExtractorName = (v: string): v is ExtractorName => (EXTRACTORS as readonly string[]).includes(v);

/** Unknown names are silently dropped (SPEC §4.3); omitted or empty means all six. */
export function resolveExtractors(requested: unknown[] | undefined): ExtractorName[] {
  if (!requested || requested.length === 0) return [...EXTRACTORS];
  const wanted = new Set(requested.filter((x): x is string => typeof x === 'string'));
  return EXTRACTORS.filter((e) => wanted.has(e));
}
