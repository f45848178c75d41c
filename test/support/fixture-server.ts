import { createServer, type Server } from 'node:http';
import { realpathSync } from 'node:fs';
import { lstat, readFile, readlink, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';

/**
 * Serves test/fixtures over HTTP on loopback. Two listeners on different ports give two
 * origins, so fixtures can load fonts, scripts and images cross-origin. Every response
 * has CORS headers (as real CDNs do for fonts). Extra dynamic routes can be added.
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.mjs': 'text/javascript; charset=utf-8',
};

/**
 * Resolves `rel` inside `root` as if `root` were the filesystem root (a chroot): Debian
 * documentation links its CSS, JS and fonts to other packages with absolute symlinks
 * (/usr/share/…), which must land in the served tree, never on the host. Undefined for
 * anything that would leave the root or does not exist.
 */
export async function resolveInRoot(root: string, rel: string): Promise<string | undefined> {
  const base = realpathSync(root);
  const parts = rel.split('/').filter((p) => p && p !== '.');
  let cur = base;
  for (let hops = 0; parts.length > 0;) {
    const part = parts.shift()!;
    if (part === '..') {
      if (cur === base) return undefined;
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, part);
    const st = await lstat(next).catch(() => undefined);
    if (!st) return undefined;
    if (!st.isSymbolicLink()) {
      cur = next;
      continue;
    }
    if (++hops > 40) return undefined;
    const target = await readlink(next);
    if (target.startsWith('/')) cur = base;
    parts.unshift(...target.split('/').filter((p) => p && p !== '.'));
  }
  return cur === base || cur.startsWith(base + sep) ? cur : undefined;
}

export type DynamicRoute = (
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
) => boolean | Promise<boolean>;

export interface FixtureServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** A second origin serving the same files. */
  crossOriginUrl: string;
  close(): Promise<void>;
}

export const FIXTURES_DIR = resolve(import.meta.dirname, '..', 'fixtures');

export interface FixtureServerOptions {
  root?: string;
  routes?: DynamicRoute[];
  /** Symlinks under `root` resolve as if `root` were `/` (see resolveInRoot). */
  chroot?: boolean;
  /** URL prefixes (e.g. `/own/`) served from other directories, without symlink following. */
  mounts?: Record<string, string>;
}

export async function startFixtureServer(opts: FixtureServerOptions = {}): Promise<FixtureServer> {
  const root = opts.root ?? FIXTURES_DIR;
  const locate = async (path: string): Promise<string | undefined> => {
    for (const [prefix, dir] of Object.entries(opts.mounts ?? {})) {
      if (!path.startsWith(prefix)) continue;
      const file = normalize(join(dir, path.slice(prefix.length)));
      return file.startsWith(dir) ? file : undefined;
    }
    if (opts.chroot) return resolveInRoot(root, path);
    const file = normalize(join(root, path));
    return file.startsWith(root) ? file : undefined;
  };
  const handler = async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    for (const route of opts.routes ?? []) {
      if (await route(req, res)) return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = await locate(path);
    if (!file) {
      res.writeHead(opts.chroot ? 404 : 403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  };
  const listen = (): Promise<Server> =>
    new Promise((resolveServer) => {
      const s = createServer((req, res) => void handler(req, res));
      s.listen(0, '127.0.0.1', () => resolveServer(s));
    });
  const [a, b] = await Promise.all([listen(), listen()]);
  const port = (s: Server) => (s.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port(a)}`,
    // `localhost` is a different origin from `127.0.0.1` even on the same port family.
    crossOriginUrl: `http://localhost:${port(b)}`,
    async close() {
      // Held requests (a long poll) and idle keep-alive sockets would keep close() waiting.
      for (const s of [a, b]) s.closeAllConnections();
      await Promise.all([a, b].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
