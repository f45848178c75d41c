import * as z from 'zod';
import { ValidationError } from '../errors.js';

/**
 * Server flags (SPEC §4.5) and their `BTS_<FLAG>` environment mirrors; a flag wins over
 * its variable. Unknown flags and bad values are refused with a message naming them.
 */
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const positiveInt = z.coerce.number().int().positive();

/** `scheme://host[:port]` exactly as browsers send it in `Origin` (no path, no trailing slash). */
function isOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === value.toLowerCase();
  } catch {
    return false;
  }
}

const originList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .refine(
    (list) => list.every(isOrigin),
    'must be comma-separated origins like https://app.example.com (scheme, host and port only)',
  )
  .transform((list) => list.map((o) => o.toLowerCase()));

const FLAGS = {
  transport: z
    .enum(['stdio', 'http', 'sse'])
    .transform((v) => (v === 'sse' ? 'http' : v))
    .default('stdio'),
  'knowledge-graph-dir': z.string().min(1).default('data/knowledgegraphindex'),
  'auth-mode': z
    .enum(['none', 'static', 'dynamodb', 'table'])
    .transform((v) => (v === 'dynamodb' ? 'table' : v))
    .default('none'),
  'api-key': z.string().min(1).optional(),
  'api-key-table': z.string().min(1).default('bts-prod-api-keys'),
  'auth-cache-ttl': z.coerce.number().int().nonnegative().default(60_000),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65_535).default(3000),
  headless: bool.default(true),
  headed: bool.optional(),
  proxy: z
    .string()
    .regex(/^(https?|socks5):\/\/[^\s]+$/, 'must be an http://, https:// or socks5:// URL')
    .optional(),
  fingerprint: z.string().min(1).optional(),
  humanize: bool.default(false),
  'human-preset': z.enum(['default', 'careful']).default('default'),
  'log-level': z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Not in the spec's table: let browser sessions reach loopback and private addresses (local use only). */
  'allow-private-network': bool.default(false),
  /** Not in the spec's table: how long an unused browser session stays open. */
  'idle-timeout': positiveInt.default(15 * 60_000),
  /** Not in the spec's table: lets `create_session` callers pick their own proxy (off: a proxy is a way into the operator's network). */
  'allow-caller-proxy': bool.default(false),
  /** Not in the spec's table: open MCP sessions one API key (identity) may hold over HTTP. */
  'max-mcp-sessions-per-key': positiveInt.default(10),
  /** Not in the spec's table: browser sessions one MCP session may hold open at once. */
  'max-browser-sessions': positiveInt.default(5),
  /** Not in the spec's table: browser origins (web-based MCP clients) allowed to call /mcp besides loopback ones on a loopback bind. */
  'allowed-origins': originList.default([]),
} as const;

const DESCRIPTIONS: Record<keyof typeof FLAGS, string> = {
  transport: 'stdio or http (sse is an alias of http)  [stdio]',
  'knowledge-graph-dir': 'bundled knowledge-graph index  [data/knowledgegraphindex]',
  'auth-mode': 'none, static or table (alias dynamodb) for HTTP /mcp  [none]',
  'api-key': 'the bearer key accepted in static mode',
  'api-key-table': 'API-key table of the table mode  [bts-prod-api-keys]',
  'auth-cache-ttl': 'ms a key lookup is cached  [60000]',
  host: 'HTTP host; 0.0.0.0 exposes the server on the network  [127.0.0.1]',
  port: 'HTTP port  [3000]',
  headless: 'true or false  [true]',
  headed: 'shortcut for --headless false',
  proxy: "the operator's default proxy for every browser session (http, https or socks5 URL)",
  fingerprint: 'default fingerprint seed  [random]',
  humanize: 'human-like mouse and keyboard by default  [false]',
  'human-preset': 'default or careful  [default]',
  'log-level': 'debug, info, warn or error  [info]',
  'allow-private-network':
    'let browser sessions reach loopback, private and link-local addresses (local use only)  [false]',
  'idle-timeout': 'ms an unused browser session stays open  [900000]',
  'allow-caller-proxy': "accept create_session's proxy parameter from callers  [false]",
  'max-mcp-sessions-per-key': 'open MCP sessions per API key over HTTP; one more initialize is refused  [10]',
  'max-browser-sessions': 'open browser sessions per MCP session; one more create_session is a tool error  [5]',
  'allowed-origins':
    'comma-separated browser origins allowed to call /mcp (loopback origins are always allowed on a loopback bind)  [none]',
};

type FlagName = keyof typeof FLAGS;
/** Flags that may be given without a value. */
const SWITCHES = new Set<FlagName>(['headed', 'humanize', 'allow-private-network', 'allow-caller-proxy']);

const OptionsSchema = z.object(FLAGS);
export type ParsedFlags = z.infer<typeof OptionsSchema>;

export interface ServerOptions {
  transport: 'stdio' | 'http';
  knowledgeGraphDir: string;
  authMode: 'none' | 'static' | 'table';
  apiKey?: string;
  apiKeyTable: string;
  authCacheTtlMs: number;
  host: string;
  port: number;
  headless: boolean;
  proxy?: string;
  fingerprint?: string;
  humanize: boolean;
  humanPreset: 'default' | 'careful';
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  idleTimeoutMs: number;
  allowPrivateNetwork: boolean;
  allowCallerProxy: boolean;
  maxMcpSessionsPerKey: number;
  maxBrowserSessions: number;
  /** Lower-case origins; see lib/mcp/origin.ts for what else is allowed. */
  allowedOrigins: string[];
}

export const envName = (flag: string): string => `BTS_${flag.toUpperCase().replace(/-/g, '_')}`;

export const HELP = `Usage: browser-task-mcp [flags]   (every flag also reads BTS_<FLAG>, e.g. BTS_AUTH_MODE; a flag wins)
${(Object.keys(FLAGS) as FlagName[]).map((f) => `  --${f.padEnd(26)}${DESCRIPTIONS[f]}`).join('\n')}
  --help`;

export class HelpRequested extends Error {}

export function parseServerOptions(argv: string[], env: Record<string, string | undefined>): ServerOptions {
  const raw: Partial<Record<FlagName, string>> = {};
  for (const flag of Object.keys(FLAGS) as FlagName[]) {
    const v = env[envName(flag)];
    if (v !== undefined && v !== '') raw[flag] = v;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') throw new HelpRequested(HELP);
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m?.[1] || !(m[1] in FLAGS)) throw new ValidationError(`Unknown flag ${arg}. Run with --help for the list.`);
    const flag = m[1] as FlagName;
    let value = m[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (SWITCHES.has(flag) && (next === undefined || next.startsWith('--'))) value = 'true';
      else if (next === undefined || next.startsWith('--')) throw new ValidationError(`Flag --${flag} needs a value`);
      else value = argv[++i];
    }
    raw[flag] = value;
  }
  const parsed = OptionsSchema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `--${i.path.join('.')} (${envName(String(i.path[0]))}): ${i.message}`)
      .join('; ');
    throw new ValidationError(`Invalid option: ${detail}`);
  }
  const o = parsed.data;
  if (o['auth-mode'] === 'static' && !o['api-key'])
    throw new ValidationError('--auth-mode static needs --api-key (or BTS_API_KEY)');
  return {
    transport: o.transport as 'stdio' | 'http',
    knowledgeGraphDir: o['knowledge-graph-dir'],
    authMode: o['auth-mode'] as 'none' | 'static' | 'table',
    apiKey: o['api-key'],
    apiKeyTable: o['api-key-table'],
    authCacheTtlMs: o['auth-cache-ttl'],
    host: o.host,
    port: o.port,
    // --headed is the shortcut for --headless false.
    headless: o.headed ? false : o.headless,
    proxy: o.proxy,
    fingerprint: o.fingerprint,
    humanize: o.humanize,
    humanPreset: o['human-preset'],
    logLevel: o['log-level'],
    idleTimeoutMs: o['idle-timeout'],
    allowPrivateNetwork: o['allow-private-network'],
    allowCallerProxy: o['allow-caller-proxy'],
    maxMcpSessionsPerKey: o['max-mcp-sessions-per-key'],
    maxBrowserSessions: o['max-browser-sessions'],
    allowedOrigins: o['allowed-origins'],
  };
}
