import { checkUrl, type NetworkPolicy } from '../browser/network/guard.js';
import { ToolError } from '../errors.js';

/**
 * A proxy named by a caller decides where the browser's traffic really goes, past the
 * network guard's view: on a hosted server it would let any tenant reach the operator's
 * internal proxies or networks. So callers may only choose one when the operator says
 * so, and even then (unless private networks are allowed) not one on a private address.
 */
export async function checkCallerProxy(proxy: string, allowed: boolean, network: NetworkPolicy): Promise<void> {
  if (!allowed) {
    throw new ToolError(
      'The proxy parameter is disabled on this server: callers cannot choose a proxy unless the operator starts it with --allow-caller-proxy (BTS_ALLOW_CALLER_PROXY=true). ' +
        "Call create_session without proxy to use the server's own network settings.",
    );
  }
  // The guard judges http(s) URLs; a SOCKS proxy's address is judged the same way.
  const verdict = await checkUrl(network, proxy.replace(/^socks5:/i, 'http:'));
  if (!verdict.allowed)
    throw new ToolError(`This proxy cannot be used: ${verdict.reason.replace(/^Refused to load \S+: /, '')}`);
}
