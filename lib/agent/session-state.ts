import type { BrowserContext } from 'playwright-core';
import { z } from 'zod';
import type { EncryptionContext, Encryptor } from '../credentials/encryptor.js';
import type { ResultStore } from '../tasks/result-store.js';

/**
 * The browser state a session carries from one turn to the next: cookies, localStorage
 * and the last URL. Stored in the results bucket, encrypted with the same encryptor (KMS
 * in AWS) and context {businessId, endUserId} as the end-user's credentials, so a state
 * cannot be decrypted for another end-user. There is no session delete endpoint; the
 * object expires with the bucket's lifecycle rule like every other task result.
 *
 * Cookies of the platform domains are never saved, whatever their value (the platforms
 * rotate and derive session cookies): the end-user's cookies are injected fresh from the
 * credential store each turn, so deleting credentials signs the agent out at once.
 */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface SessionBrowserState {
  storageState: StorageState;
  lastUrl?: string;
}

const Envelope = z.object({ v: z.literal(1), ciphertext: z.string().min(1) });

const StateSchema = z.object({
  storageState: z.object({
    cookies: z.array(
      z.object({ name: z.string(), value: z.string(), domain: z.string(), path: z.string() }).passthrough(),
    ),
    origins: z.array(
      z
        .object({ origin: z.string(), localStorage: z.array(z.object({ name: z.string(), value: z.string() })) })
        .passthrough(),
    ),
  }),
  lastUrl: z.string().optional(),
});

export const sessionStateKey = (businessId: string, sessionId: string): string =>
  `sessions/${businessId}/${sessionId}/browser-state.json`;

export interface SessionStateStore {
  load(businessId: string, sessionId: string, ctx: EncryptionContext): Promise<SessionBrowserState | undefined>;
  save(businessId: string, sessionId: string, ctx: EncryptionContext, state: SessionBrowserState): Promise<void>;
}

const isMissing = (err: unknown): boolean => {
  const name = (err as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
};

export class EncryptedSessionStateStore implements SessionStateStore {
  constructor(
    private readonly store: ResultStore,
    private readonly encryptor: Encryptor,
  ) {}

  /** Undefined for a first turn, or when the state belongs to another end-user (wrong context). */
  async load(businessId: string, sessionId: string, ctx: EncryptionContext): Promise<SessionBrowserState | undefined> {
    let raw: unknown;
    try {
      raw = await this.store.get(sessionStateKey(businessId, sessionId));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    const env = Envelope.safeParse(raw);
    if (!env.success) return undefined;
    let plain: string;
    try {
      plain = await this.encryptor.decrypt(env.data.ciphertext, ctx);
    } catch {
      return undefined;
    }
    const parsed = StateSchema.safeParse(JSON.parse(plain));
    return parsed.success ? (parsed.data as SessionBrowserState) : undefined;
  }

  async save(businessId: string, sessionId: string, ctx: EncryptionContext, state: SessionBrowserState): Promise<void> {
    const ciphertext = await this.encryptor.encrypt(JSON.stringify(state), ctx);
    await this.store.put(sessionStateKey(businessId, sessionId), { v: 1, ciphertext });
  }
}

/** Drops every cookie of a platform domain: those come from the credential vault, turn by turn. */
export function withoutPlatformCookies(
  state: StorageState,
  onPlatform: (cookieDomain: string) => boolean,
): StorageState {
  return { ...state, cookies: state.cookies.filter((c) => !onPlatform(c.domain)) };
}
