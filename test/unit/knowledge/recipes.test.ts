import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../lib/errors.js';
import {
  InvalidParamsError,
  ResponseShapeError,
  UnknownOperationError,
  UnknownSiteError,
  UpstreamError,
} from '../../../lib/knowledge/errors.js';
import { KnowledgeIndex, parseEntry } from '../../../lib/knowledge/index.js';
import {
  expandUrl,
  type HttpGet,
  LOOKUP_MAX_BYTES,
  LOOKUP_TIMEOUT_MS,
  mapResponse,
  runLookup,
  TEXT_MAX_CHARS,
  validateParams,
} from '../../../lib/knowledge/recipes.js';
import type { Lookup, SiteEntryInput } from '../../../lib/knowledge/schemas.js';

type LookupInput = NonNullable<SiteEntryInput['lookups']>[number];
const DOCS = 'https://demo.example/docs';

/** One entry with the recipes under test; parsing it applies the same validation as loading. */
function demoIndex(): KnowledgeIndex {
  const lookups: LookupInput[] = [
    {
      name: 'search',
      description: 'Search items',
      url: 'https://api.demo.example/v1/{kind}/search?q={query}&lang={lang}&page={page}&exact={exact}',
      params: {
        kind: { type: 'string', description: 'Kind', enum: ['books', 'films'], default: 'books' },
        query: { type: 'string', description: 'Words', required: true, maxLength: 50 },
        lang: { type: 'string', description: 'Language', pattern: '[a-z]{2}' },
        page: { type: 'integer', description: 'Page', default: 1, minimum: 1, maximum: 10 },
        exact: { type: 'boolean', description: 'Exact match', default: false },
      },
      format: 'json',
      fields: {
        total: 'meta.total',
        titles: 'items[].title',
        first: 'items[0].title?',
        last: 'items[-1].title?',
        tags: 'items[].info.tags?',
      },
      limit: 3,
      docs: DOCS,
    },
    {
      name: 'file',
      description: 'A file',
      url: 'https://files.demo.example/{path}',
      params: { path: { type: 'string', description: 'File path', required: true, slashes: true } },
      format: 'text',
      docs: DOCS,
    },
    {
      name: 'point',
      description: 'A point',
      url: 'https://api.demo.example/point/{lat},{lon}',
      params: {
        lat: { type: 'number', description: 'Latitude', required: true, minimum: -90, maximum: 90 },
        lon: { type: 'number', description: 'Longitude', required: true },
      },
      format: 'json',
      fields: { name: 'properties.name' },
      docs: DOCS,
    },
  ];
  const demo = parseEntry(
    'demo.json',
    JSON.stringify({ site: 'demo', name: 'Demo', domains: ['demo.example'], login: { required: false }, lookups }),
  );
  const plain = parseEntry(
    'plain.json',
    JSON.stringify({ site: 'plain', name: 'Plain', domains: ['plain.example'], login: { required: true } }),
  );
  return new KnowledgeIndex([demo, plain]);
}

const index = demoIndex();
const op = (name: string): Lookup => {
  const found = index.operation('demo', name);
  if (!found) throw new Error(`no ${name}`);
  return found;
};

describe('URL expansion', () => {
  it.each([
    [
      'defaults fill in and the optional pair is dropped',
      { query: 'dune' },
      'https://api.demo.example/v1/books/search?q=dune&page=1&exact=false',
    ],
    [
      'values are percent-encoded as URI components',
      { query: 'a b&c=d/e?f#g', lang: 'fr' },
      'https://api.demo.example/v1/books/search?q=a%20b%26c%3Dd%2Fe%3Ff%23g&lang=fr&page=1&exact=false',
    ],
    [
      'non-ASCII text is UTF-8 encoded',
      { query: 'Zürich 東京' },
      'https://api.demo.example/v1/books/search?q=Z%C3%BCrich%20%E6%9D%B1%E4%BA%AC&page=1&exact=false',
    ],
    [
      'numbers and booleans given as strings are accepted',
      { query: 'x', kind: 'films', page: '3', exact: 'true' },
      'https://api.demo.example/v1/films/search?q=x&page=3&exact=true',
    ],
    [
      'a null optional parameter counts as absent',
      { query: 'x', lang: null },
      'https://api.demo.example/v1/books/search?q=x&page=1&exact=false',
    ],
  ])('%s', (_label, params, url) => {
    expect(expandUrl(op('search'), params)).toBe(url);
  });

  it('keeps the slashes of a path parameter declared with slashes, encoding each segment', () => {
    expect(expandUrl(op('file'), { path: 'docs/read me.txt' })).toBe('https://files.demo.example/docs/read%20me.txt');
  });

  it('expands numbers in the path', () => {
    expect(expandUrl(op('point'), { lat: 48.85, lon: '-2.5' })).toBe('https://api.demo.example/point/48.85,-2.5');
  });

  it('never lets a value leave its place in the URL (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 50 }).filter((s) => s !== '.' && s !== '..'),
        fc.string({ minLength: 1, maxLength: 50 }),
        (kind, query) => {
          const searchOp = {
            ...op('search'),
            params: { ...op('search').params, kind: { type: 'string' as const, description: 'Kind', required: true } },
          };
          const url = new URL(expandUrl(searchOp, { kind, query }));
          expect(url.origin).toBe('https://api.demo.example');
          expect(url.pathname.split('/').map(decodeURIComponent)).toEqual(['', 'v1', kind, 'search']);
          expect(url.searchParams.get('q')).toBe(query);
          expect(url.hash).toBe('');
        },
      ),
    );
  });
});

describe('parameter validation', () => {
  it.each([
    [
      'a missing required parameter',
      {},
      'Invalid params for search: "query" is required. Parameters: kind, query, lang, page, exact.',
    ],
    ['an unknown parameter', { query: 'x', colour: 'red' }, 'unknown parameter "colour"'],
    ['a value outside the enum', { query: 'x', kind: 'games' }, '"kind" must be one of books, films'],
    [
      'a value that does not match the pattern',
      { query: 'x', lang: 'french' },
      '"lang" must match the pattern [a-z]{2}',
    ],
    ['a number above the maximum', { query: 'x', page: 11 }, '"page" must be at most 10'],
    ['a fraction for an integer', { query: 'x', page: 1.5 }, '"page" must be an integer'],
    ['text for an integer', { query: 'x', page: 'two' }, '"page" must be an integer'],
    ['a word for a boolean', { query: 'x', exact: 'yes' }, '"exact" must be a boolean'],
    ['an empty string', { query: '' }, '"query" must not be empty'],
    ['a string over maxLength', { query: 'x'.repeat(51) }, '"query" must be at most 50 characters'],
    ['params that are not an object', 'dune', 'params must be an object'],
  ])('%s', (_label, params, message) => {
    // Act + Assess
    expect(() => validateParams(op('search'), params)).toThrow(InvalidParamsError);
    expect(() => validateParams(op('search'), params)).toThrow(message);
  });

  it.each([
    ['a dot-dot path segment', { path: 'docs/../secret' }],
    ['an empty path segment', { path: 'docs//x' }],
    ['a single dot', { path: '.' }],
  ])('refuses %s in a slashes parameter', (_label, params) => {
    expect(() => expandUrl(op('file'), params)).toThrow('"path" must be a path without empty, "." or ".." segments');
  });

  it('refuses "." and ".." for an ordinary path parameter, which the URL parser would resolve', () => {
    const searchOp = {
      ...op('search'),
      params: { ...op('search').params, kind: { type: 'string' as const, description: 'Kind', required: true } },
    };
    expect(() => expandUrl(searchOp, { kind: '..', query: 'x' })).toThrow('"kind" cannot be "." or ".."');
  });
});

describe('response mapping', () => {
  const body = JSON.stringify({
    meta: { total: 42 },
    items: [
      { title: 'A', info: { tags: ['x'] } },
      { title: 'B', info: {} },
      { title: 'C', info: { tags: [] } },
      { title: 'D' },
    ],
  });

  it('reads nested keys, indexes from either end, and lists cut to the recipe limit', () => {
    expect(mapResponse(op('search'), body)).toEqual({
      total: 42,
      titles: ['A', 'B', 'C'],
      first: 'A',
      last: 'D',
      tags: [['x'], null, []],
    });
  });

  it('honours a caller limit over the recipe limit', () => {
    expect(mapResponse(op('search'), body, { limit: 1 }).titles).toEqual(['A']);
  });

  it('reports a missing required path with the exact spot', () => {
    // Prepare
    const missing = JSON.stringify({ meta: {}, items: [] });
    // Assess
    expect(() => mapResponse(op('search'), missing, { label: 'demo/search' })).toThrow(ResponseShapeError);
    expect(() => mapResponse(op('search'), missing, { label: 'demo/search' })).toThrow(
      'demo/search: the response has no value for field "total" (path meta.total, missing at meta.total).',
    );
  });

  it('reports a missing key inside a list element with its index', () => {
    const holes = JSON.stringify({ meta: { total: 2 }, items: [{ title: 'A' }, { name: 'B' }] });
    expect(() => mapResponse(op('search'), holes)).toThrow(
      'field "titles" (path items[].title, missing at items[1].title)',
    );
  });

  it('treats a list that is not a list as missing', () => {
    expect(() => mapResponse(op('search'), JSON.stringify({ meta: { total: 1 }, items: { title: 'A' } }))).toThrow(
      'missing at items[]',
    );
  });

  it('maps optional paths over a missing list to null', () => {
    const noItems = JSON.stringify({ meta: { total: 0 }, items: [] });
    expect(mapResponse(op('search'), noItems)).toEqual({ total: 0, titles: [], first: null, last: null, tags: [] });
  });

  it('explains a body that is not JSON, with its content type and start', () => {
    expect(() =>
      mapResponse(op('search'), '<!DOCTYPE html><html>blocked</html>', {
        label: 'demo/search',
        contentType: 'text/html',
      }),
    ).toThrow(
      'demo/search expected JSON but the response is not JSON (content type text/html; it starts with "<!DOCTYPE html><html>blocked</html>").',
    );
  });

  it('accepts JSON behind a byte-order mark', () => {
    expect(mapResponse(op('point'), '\uFEFF{"properties":{"name":"Here"}}')).toEqual({ name: 'Here' });
  });

  it('returns text trimmed, and cut with a flag when long', () => {
    expect(mapResponse(op('file'), '  hello \n')).toEqual({ text: 'hello', truncated: false });
    const long = mapResponse(op('file'), 'x'.repeat(TEXT_MAX_CHARS + 10));
    expect(long).toEqual({ text: `${'x'.repeat(TEXT_MAX_CHARS)}…`, truncated: true });
  });
});

const ok = (body: unknown, contentType = 'application/json'): HttpGet =>
  vi.fn<HttpGet>(async (url) => ({
    status: 200,
    url,
    contentType,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }));

describe('runLookup', () => {
  it('calls the port with the expanded URL and the default limits, and returns the mapped fields', async () => {
    // Prepare
    const http = ok({ properties: { name: 'Null Island' } });
    // Act
    const result = await runLookup(index, { site: 'demo', operation: 'point', params: { lat: 0, lon: 0 } }, http);
    // Assess
    expect(http).toHaveBeenCalledWith('https://api.demo.example/point/0,0', {
      timeoutMs: LOOKUP_TIMEOUT_MS,
      maxBytes: LOOKUP_MAX_BYTES,
    });
    expect(result).toEqual({
      site: 'demo',
      operation: 'point',
      url: 'https://api.demo.example/point/0,0',
      fields: { name: 'Null Island' },
    });
  });

  it('passes caller limits through to the port', async () => {
    const http = ok({ properties: { name: 'x' } });
    await runLookup(index, { site: 'demo', operation: 'point', params: { lat: 1, lon: 2 } }, http, {
      timeoutMs: 500,
      maxBytes: 1024,
    });
    expect(http).toHaveBeenCalledWith('https://api.demo.example/point/1,2', { timeoutMs: 500, maxBytes: 1024 });
  });

  it.each([
    [
      'an unknown site, suggesting near ones',
      { site: 'dem', operation: 'point' },
      UnknownSiteError,
      'Unknown site "dem". Use `knowledge` to find site ids.',
    ],
    [
      'a site that is close to a known one',
      { site: 'demo.example', operation: 'point' },
      UnknownSiteError,
      'Unknown site "demo.example". Did you mean "demo"',
    ],
    [
      'an unknown operation, listing the valid ones',
      { site: 'demo', operation: 'find' },
      UnknownOperationError,
      'Site "demo" has no operation "find". Valid operations: "search", "file", "point".',
    ],
    [
      'a site without recipes',
      { site: 'plain', operation: 'find' },
      UnknownOperationError,
      'Site "plain" has no lookup operations; open its pages in the browser instead.',
    ],
    [
      'invalid params, naming the field',
      { site: 'demo', operation: 'point', params: { lat: 91, lon: 0 } },
      InvalidParamsError,
      'Invalid params for demo/point: "lat" must be at most 90. Parameters: lat, lon.',
    ],
    [
      'a request without an operation',
      { site: 'demo' },
      InvalidParamsError,
      'A lookup needs a site, an operation and optional params: operation',
    ],
  ])('refuses %s before any network call', async (_label, request, type, message) => {
    // Prepare
    const http = ok({});
    // Act
    const attempt = runLookup(index, request as never, http);
    // Assess
    await expect(attempt).rejects.toThrow(type);
    await expect(attempt).rejects.toThrow(message);
    expect(http).not.toHaveBeenCalled();
  });

  it.each([
    [404, 'demo/point: https://api.demo.example/point/0,0 answered HTTP 404 (nothing exists for these parameters).'],
    [429, 'answered HTTP 429 (rate limited; try again later).'],
    [503, 'answered HTTP 503 (the service is failing; try again later).'],
    [302, 'answered HTTP 302.'],
  ])('turns HTTP %i into an upstream error sentence', async (status, message) => {
    const http: HttpGet = async (url) => ({ status, url, contentType: 'text/plain', body: 'nope' });
    const attempt = runLookup(index, { site: 'demo', operation: 'point', params: { lat: 0, lon: 0 } }, http);
    await expect(attempt).rejects.toThrow(UpstreamError);
    await expect(attempt).rejects.toThrow(message);
  });

  it('wraps a failing port in a sentence naming the URL, keeping the cause', async () => {
    // Prepare
    const cause = new Error('connect ECONNREFUSED');
    const http: HttpGet = async () => {
      throw cause;
    };
    // Act
    const error = await runLookup(index, { site: 'demo', operation: 'point', params: { lat: 0, lon: 0 } }, http).catch(
      (e: unknown) => e,
    );
    // Assess
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).message).toBe(
      'demo/point: calling https://api.demo.example/point/0,0 failed (connect ECONNREFUSED).',
    );
    expect((error as UpstreamError).cause).toBe(cause);
  });

  it("lets the port's own readable errors (network guard, size cap) through unchanged", async () => {
    const refusal = new AppError('Refused: api.demo.example resolves to a private address.', { expose: true });
    const http: HttpGet = async () => {
      throw refusal;
    };
    await expect(runLookup(index, { site: 'demo', operation: 'point', params: { lat: 0, lon: 0 } }, http)).rejects.toBe(
      refusal,
    );
  });

  it('returns text recipes as text', async () => {
    const result = await runLookup(
      index,
      { site: 'demo', operation: 'file', params: { path: 'a/b.txt' } },
      ok('  line one\nline two\n', 'text/plain'),
    );
    expect(result.fields).toEqual({ text: 'line one\nline two', truncated: false });
  });
});
