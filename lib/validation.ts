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

/** An absolute http(s) URL, named in its messages. */
export const httpUrl = (field: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .refine(isHttpUrl, `${field} must be a valid http:// or https:// URL`)
    .meta({ format: 'uri', description: 'An absolute http:// or https:// URL' });
