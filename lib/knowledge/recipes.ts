import { AppError } from '../errors.js';
import {
  InvalidParamsError,
  ResponseShapeError,
  UnknownOperationError,
  UnknownSiteError,
  UpstreamError,
} from './errors.js';
import type { KnowledgeIndex } from './index.js';
import { type ParamValues, paramsSchema } from './params.js';
import { type ParsedPath, parsePath, PathMissError, readPath } from './path.js';
import { DEFAULT_LIST_LIMIT, type Lookup, type LookupRequest, LookupRequestSchema } from './schemas.js';
import { expandTemplate, type ParsedTemplate, parseTemplate } from './template.js';

/**
 * Running a recipe: validate the caller's params, expand the URL, call the endpoint
 * through an injected HTTP port, map the body to the declared fields. Everything here is
 * pure but the port: the network guard, redirects, timeouts and size caps belong to the
 * port's production adapter, which receives the limits chosen here.
 */
export interface HttpResult {
  status: number;
  /** The final URL, after any redirects the adapter followed. */
  url: string;
  contentType: string;
  body: string;
}
export type HttpGet = (url: string, opts: { timeoutMs: number; maxBytes: number }) => Promise<HttpResult>;

export interface LookupResult {
  site: string;
  operation: string;
  /** The URL that was requested (the expanded template). */
  url: string;
  fields: Record<string, unknown>;
}

export const LOOKUP_TIMEOUT_MS = 10_000;
export const LOOKUP_MAX_BYTES = 2_000_000;
/** Text answers are for a model to read: long pages are cut rather than flooding its context. */
export const TEXT_MAX_CHARS = 8_000;

interface Compiled {
  template: ParsedTemplate;
  validate: ReturnType<typeof paramsSchema>;
  slashes: Set<string>;
  fields: [string, ParsedPath][];
}

// Recipes are validated on load, so compiling cannot fail here; the cache spares the
// regular-expression and zod construction on every call.
const compiled = new WeakMap<Lookup, Compiled>();
function compile(op: Lookup): Compiled {
  const hit = compiled.get(op);
  if (hit) return hit;
  const template = parseTemplate(op.url);
  if (typeof template === 'string') throw new Error(`Recipe ${op.name}: url ${template}`);
  const fields = Object.entries(op.fields ?? {}).map(([name, source]): [string, ParsedPath] => {
    const p = parsePath(source);
    if (typeof p === 'string') throw new Error(`Recipe ${op.name}: path "${source}" ${p}`);
    return [name, p];
  });
  const slashes = new Set(Object.entries(op.params).flatMap(([n, s]) => (s.slashes ? [n] : [])));
  const c = { template, validate: paramsSchema(op.params, template.pathNames), slashes, fields };
  compiled.set(op, c);
  return c;
}

/** Validated params with defaults filled in; throws InvalidParamsError naming each bad field. */
export function validateParams(op: Lookup, params: unknown, label = op.name): ParamValues {
  const parsed = compile(op).validate.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys')
      return `unknown parameter${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}`;
    const [name] = i.path;
    return name === undefined ? i.message : `"${String(name)}" ${i.message}`;
  });
  const valid = Object.keys(op.params);
  throw new InvalidParamsError(
    `Invalid params for ${label}: ${problems.join('; ')}. Parameters: ${valid.length > 0 ? valid.join(', ') : 'none'}.`,
  );
}

/** The URL a recipe calls for these (unvalidated) params. */
export function expandUrl(op: Lookup, params: unknown, label = op.name): string {
  const c = compile(op);
  return expandTemplate(c.template, validateParams(op, params, label), c.slashes);
}

/** Maps a response body to the recipe's fields: JSON through the paths, text trimmed and capped. */
export function mapResponse(
  op: Lookup,
  body: string,
  opts: { label?: string; contentType?: string; limit?: number } = {},
): Record<string, unknown> {
  const label = opts.label ?? op.name;
  if (op.format === 'text') {
    const text = body.trim();
    return text.length > TEXT_MAX_CHARS
      ? { text: `${text.slice(0, TEXT_MAX_CHARS)}…`, truncated: true }
      : { text, truncated: false };
  }
  let data: unknown;
  try {
    // Content types are not trusted either way: several APIs serve JSON as text/javascript.
    data = JSON.parse(body.replace(/^\uFEFF/, ''));
  } catch {
    const start = body.trim().slice(0, 60).replace(/\s+/g, ' ');
    throw new UpstreamError(
      `${label} expected JSON but the response is not JSON (content type ${opts.contentType || 'unknown'}; it starts with "${start}").`,
    );
  }
  const limit = opts.limit ?? op.limit ?? DEFAULT_LIST_LIMIT;
  const out: Record<string, unknown> = {};
  for (const [name, path] of compile(op).fields) {
    try {
      out[name] = readPath(data, path, limit);
    } catch (err) {
      if (!(err instanceof PathMissError)) throw err;
      throw new ResponseShapeError(
        `${label}: the response has no value for field "${name}" (path ${path.source}, ${err.message}).`,
      );
    }
  }
  return out;
}

function resolveOperation(index: KnowledgeIndex, site: string, operation: string): Lookup {
  const entry = index.site(site);
  if (!entry) {
    const near = index.search(site, 3).map((e) => e.site);
    throw new UnknownSiteError(
      `Unknown site "${site}".${near.length > 0 ? ` Did you mean ${near.map((s) => `"${s}"`).join(', ')}?` : ''} Use \`knowledge\` to find site ids.`,
    );
  }
  const op = entry.lookups.find((o) => o.name === operation);
  if (op) return op;
  const valid = entry.lookups.map((o) => `"${o.name}"`);
  throw new UnknownOperationError(
    valid.length > 0
      ? `Site "${site}" has no operation "${operation}". Valid operations: ${valid.join(', ')}.`
      : `Site "${site}" has no lookup operations; open its pages in the browser instead.`,
  );
}

const STATUS_HINT: Record<number, string> = {
  400: 'the endpoint refused the parameters',
  404: 'nothing exists for these parameters',
  429: 'rate limited; try again later',
};

/**
 * Checks a request without calling anything: the site, the operation and the params must
 * be valid. Returns the URL the recipe would call; throws the same ValidationErrors as a run.
 */
export function checkLookup(index: KnowledgeIndex, request: LookupRequest): string {
  const req = LookupRequestSchema.safeParse(request);
  if (!req.success)
    throw new InvalidParamsError(
      `A lookup needs a site, an operation and optional params: ${req.error.issues.map((i) => `${i.path.join('.') || 'request'} ${i.message}`).join('; ')}.`,
    );
  const { site, operation, params } = req.data;
  return expandUrl(resolveOperation(index, site, operation), params, `${site}/${operation}`);
}

/** Calls one recipe and returns its mapped fields. All failures are readable sentences. */
export async function runLookup(
  index: KnowledgeIndex,
  request: LookupRequest,
  http: HttpGet,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<LookupResult> {
  const req = LookupRequestSchema.safeParse(request);
  if (!req.success)
    throw new InvalidParamsError(
      `A lookup needs a site, an operation and optional params: ${req.error.issues.map((i) => `${i.path.join('.') || 'request'} ${i.message}`).join('; ')}.`,
    );
  const { site, operation, params } = req.data;
  const op = resolveOperation(index, site, operation);
  const label = `${site}/${operation}`;
  const url = expandUrl(op, params, label);
  let res: HttpResult;
  try {
    res = await http(url, {
      timeoutMs: opts.timeoutMs ?? LOOKUP_TIMEOUT_MS,
      maxBytes: opts.maxBytes ?? LOOKUP_MAX_BYTES,
    });
  } catch (err) {
    // The adapter's own errors (guard refusals, size caps) are already sentences.
    if (err instanceof AppError && err.expose) throw err;
    throw new UpstreamError(
      `${label}: calling ${url} failed (${err instanceof Error ? err.message : String(err)}).`,
      err,
    );
  }
  if (res.status < 200 || res.status > 299) {
    const hint = STATUS_HINT[res.status] ?? (res.status >= 500 ? 'the service is failing; try again later' : undefined);
    throw new UpstreamError(`${label}: ${url} answered HTTP ${res.status}${hint ? ` (${hint})` : ''}.`);
  }
  return { site, operation, url, fields: mapResponse(op, res.body, { label, contentType: res.contentType }) };
}
