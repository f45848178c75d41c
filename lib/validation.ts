import * as z from 'zod';

/** The part of a zod issue a sentence needs; structural, so any zod version's issues fit. */
export interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Zod issues as a sentence a caller can act on: "field: problem". The API shows the
 * first issue only (one thing to fix at a time); tools, configuration and data files list
 * them all, since their authors fix them in one go.
 */
export function formatIssues(issues: readonly Issue[], opts: { all?: boolean } = {}): string {
  const shown = opts.all ? issues : issues.slice(0, 1);
  if (shown.length === 0) return 'Invalid input';
  return shown
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      if (!path) return opts.all ? `(root): ${issue.message}` : issue.message;
      return issue.message.startsWith(path) ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** SPEC §8: at most 256 characters, everywhere an endUserId is taken. */
export const EndUserIdSchema = z
  .string({ error: (iss) => (iss.input === undefined ? 'endUserId is required' : 'endUserId must be a string') })
  .min(1, 'endUserId must not be empty')
  .max(256, 'endUserId must be at most 256 characters')
  .describe('Your own label for one of your end-users (opaque to the service)');

const isHttpUrl = (v: string): boolean => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname);
  } catch {
    return false;
  }
};

/** Longer URLs are refused by common browsers, CDNs and proxies anyway. */
export const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL, named in its messages. */
export const httpUrl = (field: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .max(MAX_URL_LENGTH, `${field} must be at most ${MAX_URL_LENGTH} characters`)
    .refine(isHttpUrl, `${field} must be a valid http:// or https:// URL`)
    .meta({ format: 'uri', description: 'An absolute http:// or https:// URL' });

/**
 * Ids in paths (taskId, sessionId, keyId). Ours are UUIDs or shorter; 256 keeps any id
 * far below DynamoDB's 2048-byte partition-key limit, so a long one is a 400, not a 500.
 */
export const MAX_ID_LENGTH = 256;

export const idParam = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .min(1, `${name} must not be empty`)
    .max(MAX_ID_LENGTH, `${name} must be at most ${MAX_ID_LENGTH} characters`);

/** DynamoDB stores at most 32 levels of nested maps and lists in an item. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests deeper than `limit` levels (a scalar is depth 0,
 * `{}` depth 1). Stops descending past the limit, so a hostile body costs no deep recursion.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit <= 0) return true;
  const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  return children.some((child) => nestsDeeperThan(child, limit - 1));
}
