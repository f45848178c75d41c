/**
 * Which browser pages may call `/mcp`. Non-browser clients (desktop apps, SDKs, agents)
 * send no `Origin` and are judged by their bearer key alone. A browser always sends one
 * on cross-origin requests, so a page the operator did not list can neither drive the
 * browser through a user's local server (DNS rebinding, a malicious tab) nor reach a
 * hosted one with a key it found. On a loopback bind, loopback origins (local tools such
 * as the MCP Inspector) are allowed too; on any other bind only the listed ones are:
 * a hosted server serves no pages of its own, so "same origin" there can only be a
 * rebinding trick.
 */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export interface OriginPolicy {
  loopbackBind: boolean;
  allowed: ReadonlySet<string>;
}

export function originPolicy(bindHost: string, allowedOrigins: readonly string[]): OriginPolicy {
  return {
    loopbackBind: LOOPBACK_HOSTS.has(bindHost.toLowerCase()),
    allowed: new Set(allowedOrigins.map((o) => o.toLowerCase())),
  };
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && LOOPBACK_HOSTS.has(u.hostname);
  } catch {
    return false;
  }
}

/** No `Origin` (not a browser) is allowed; `null` (sandboxed frames, file pages) never is. */
export function isOriginAllowed(policy: OriginPolicy, origin: string | undefined): boolean {
  if (origin === undefined) return true;
  const o = origin.toLowerCase();
  if (policy.allowed.has(o)) return true;
  return policy.loopbackBind && isLoopbackOrigin(o);
}

/** Request headers a browser client of streamable HTTP sends, and the response headers it must read. */
const ALLOW_HEADERS = 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id';
const EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';

/** CORS headers for an allowed browser origin; none for non-browser clients. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': EXPOSE_HEADERS };
}

/** The answer to a CORS preflight from an allowed origin. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': 'GET, POST, DELETE',
    'access-control-allow-headers': ALLOW_HEADERS,
    'access-control-max-age': '600',
  };
}
