import * as z from 'zod';
import { EndUserIdSchema } from '../http/validation.js';
import { EXTRACTORS, MAX_STEPS, type ExtractorName } from './model.js';

const isHttpUrl = (v: string): boolean => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname);
  } catch {
    return false;
  }
};

const httpUrl = (field: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .refine(isHttpUrl, `${field} must be a valid http:// or https:// URL`);

export const CreateTaskBody = z.object({
  endUserId: EndUserIdSchema,
  task: z
    .string({ error: (iss) => (iss.input === undefined ? 'task is required' : 'task must be a string') })
    .refine((s) => s.trim().length > 0, 'task must not be blank')
    .refine((s) => s.length <= 20_000, 'task must be at most 20000 characters'),
  sessionId: z.string({ error: 'sessionId must be a string' }).min(1, 'sessionId must not be empty').max(256).optional(),
  startUrl: httpUrl('startUrl').optional(),
  schema: z
    .record(z.string(), z.unknown(), { error: 'schema must be a JSON Schema object' })
    .refine((s) => JSON.stringify(s).length <= 64_000, 'schema must be at most 64 KB')
    .optional(),
  maxSteps: z
    .number({ error: 'maxSteps must be a number' })
    .int('maxSteps must be an integer')
    .positive('maxSteps must be at least 1')
    .optional(),
  include_html_dump: z.boolean({ error: 'include_html_dump must be a boolean' }).optional(),
});

/** SPEC §8: the server uses min(maxSteps, 25). */
export const effectiveMaxSteps = (requested: number | undefined): number => Math.min(requested ?? MAX_STEPS, MAX_STEPS);

export const DesignBody = z.object({
  url: httpUrl('url'),
  endUserId: EndUserIdSchema,
  extractors: z.array(z.unknown(), { error: 'extractors must be an array of extractor names' }).optional(),
  enableIpRotation: z.boolean({ error: 'enableIpRotation must be a boolean' }).optional(),
});

/** Unknown names are silently dropped (SPEC §4.3); omitted or empty means all six. */
export function resolveExtractors(requested: unknown[] | undefined): ExtractorName[] {
  if (!requested || requested.length === 0) return [...EXTRACTORS];
  const wanted = new Set(requested.filter((x): x is string => typeof x === 'string'));
  return EXTRACTORS.filter((e) => wanted.has(e));
}

export const isExtractorName = (v: string): v is ExtractorName => (EXTRACTORS as readonly string[]).includes(v);
