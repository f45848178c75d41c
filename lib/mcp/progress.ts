import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/**
 * Progress for tool calls that take a while: when the client sent a `progressToken`, a
 * call still running after a second reports `notifications/progress` once a second, so
 * the client can show life and keep its request timeout from firing. The total is
 * unknown (a page takes what it takes), so progress is the seconds elapsed.
 */
export const PROGRESS_AFTER_MS = 1_000;

export type ToolCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function reportProgress(extra: ToolCallExtra, what: string, everyMs = PROGRESS_AFTER_MS): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  const started = Date.now();
  let beats = 0;
  const timer = setInterval(() => {
    beats++;
    const seconds = Math.round((Date.now() - started) / 1000);
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: beats, message: `${what} still running after ${seconds} s` },
      })
      .catch(() => undefined);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
