import * as z from 'zod';
import { ExtractorNameSchema } from '../tasks/design-result.js';
import { EXTRACTORS, type ExtractorName } from '../tasks/model.js';
import { SubmittedSchema } from '../tasks/schemas.js';
import { EndUserIdSchema, httpUrl } from '../validation.js';

/** POST /v1/design/extract and its path-scoped alias (SPEC §4.3). */
export const DesignBody = z.object({
  url: httpUrl('url').describe('The page to extract'),
  endUserId: EndUserIdSchema,
  extractors: z
    .array(z.unknown(), { error: 'extractors must be an array of extractor names' })
    .optional()
    // Unknown names are dropped rather than refused, so the items are looser than documented.
    .meta({
      items: { type: 'string' },
      description: `Any of ${EXTRACTORS.join(', ')}; unknown names are dropped; omitted or empty runs all six. Ignored on the path alias.`,
    }),
  enableIpRotation: z
    .boolean({ error: 'enableIpRotation must be a boolean' })
    .optional()
    .describe('Default false; true runs the browser through the residential proxy pool'),
});
export type DesignInput = z.infer<typeof DesignBody>;

export const isExtractorName = (v: string): v is ExtractorName => (EXTRACTORS as readonly string[]).includes(v);

/** Unknown names are silently dropped (SPEC §4.3); omitted or empty means all six. */
export function resolveExtractors(requested: unknown[] | undefined): ExtractorName[] {
  if (!requested || requested.length === 0) return [...EXTRACTORS];
  const wanted = new Set(requested.filter((x): x is string => typeof x === 'string'));
  return EXTRACTORS.filter((e) => wanted.has(e));
}

/** The 202 of both design endpoints: a submitted task plus what will actually run. */
export const DesignSubmittedSchema = SubmittedSchema.extend({
  sessionId: z.string().describe('Always a new session'),
  extractors: z.array(ExtractorNameSchema).describe('The extractors that will run'),
  enableIpRotation: z.boolean(),
});
export type DesignSubmitted = z.infer<typeof DesignSubmittedSchema>;
