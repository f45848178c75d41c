/**
 * Keeps secrets out of everything the agent emits: model prompts, step summaries, logs and
 * the html dump. Secrets are what the service knows to be secret: the end-user's uploaded
 * cookie values, and the cookies the platforms set on their own domains (rotated or derived
 * sessions a page may echo). Other sites' cookies are not secrets of ours: were they, any
 * site could blank out words of the answer by setting a cookie to them. Short values are
 * left alone because replacing "1" or "en" would mangle ordinary text.
 */
export const REDACTED = '[redacted]';
const MIN_SECRET_LENGTH = 8;
/** Platform cookies are long random tokens; a short one is more likely ordinary text. */
const MIN_PLATFORM_COOKIE_LENGTH = 16;

export class Redactor {
  private fixed = new Set<string>();
  private dynamic = new Set<string>();

  constructor(secrets: Iterable<string> = []) {
    for (const s of secrets) this.addFixed(s);
  }

  addFixed(secret: string): void {
    if (secret.length >= MIN_SECRET_LENGTH) this.fixed.add(secret);
  }

  /** Replaces the platform-cookie values seen in the browser (platforms rotate them). */
  setPlatformCookieValues(values: Iterable<string>): void {
    this.dynamic = new Set([...values].filter((v) => v.length >= MIN_PLATFORM_COOKIE_LENGTH));
  }

  redact(text: string): string {
    if (!text) return text;
    // Longest first, so a secret containing another is replaced whole.
    const all = [...new Set([...this.fixed, ...this.dynamic])].sort((a, b) => b.length - a.length);
    let out = text;
    for (const s of all) {
      if (!out.includes(s)) {
        // Pages often show a cookie URL-encoded; catch that form too.
        const enc = encodeURIComponent(s);
        if (enc !== s && out.includes(enc)) out = out.split(enc).join(REDACTED);
        continue;
      }
      out = out.split(s).join(REDACTED);
    }
    return out;
  }

  /** Deep-redacts strings inside a JSON value (the model's `done` data echoes page text). */
  redactValue<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.redactValue(v)) as T;
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.redactValue(v)])) as T;
    }
    return value;
  }
}
