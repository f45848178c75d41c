import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSite } from '../../../lib/knowledge/describe.js';
import { KnowledgeIndex } from '../../../lib/knowledge/index.js';
import { parsePath, PathMissError, readPath } from '../../../lib/knowledge/path.js';

describe('parsePath', () => {
  it.each([
    [
      'dist-tags.latest',
      [
        { kind: 'key', key: 'dist-tags' },
        { kind: 'key', key: 'latest' },
      ],
    ],
    [
      'items[0].name',
      [
        { kind: 'key', key: 'items' },
        { kind: 'index', index: 0 },
        { kind: 'key', key: 'name' },
      ],
    ],
    ['[1][].value', [{ kind: 'index', index: 1 }, { kind: 'each' }, { kind: 'key', key: 'value' }]],
    [
      'versions[-1]',
      [
        { kind: 'key', key: 'versions' },
        { kind: 'index', index: -1 },
      ],
    ],
    ['places[].place name', [{ kind: 'key', key: 'places' }, { kind: 'each' }, { kind: 'key', key: 'place name' }]],
  ])('reads %s', (source, steps) => {
    expect(parsePath(source)).toMatchObject({ steps, optional: false });
  });

  it('marks a trailing ? as optional', () => {
    expect(parsePath('a.b?')).toMatchObject({
      optional: true,
      steps: [
        { kind: 'key', key: 'a' },
        { kind: 'key', key: 'b' },
      ],
    });
  });

  it.each([
    ['', 'is empty'],
    ['?', 'is empty'],
    ['.a', 'starts or ends with "."'],
    ['a.', 'starts or ends with "."'],
    ['a..b', 'has an empty key at position 2'],
    ['a[0]b', 'needs "." before the key at position 4'],
    ['a[', 'has an unclosed "[" at position 1'],
    ['a]', 'has a stray "]" at position 1'],
    ['a?b', 'has a stray "?" at position 1'],
    ['a[*]', 'has "[*]"; only [n], [-n] and [] are allowed'],
    ['a[].b[]', 'has more than one "[]"'],
  ])('refuses %j: %s', (source, reason) => {
    expect(parsePath(source)).toBe(reason);
  });
});

describe('readPath', () => {
  const read = (value: unknown, source: string, limit = 10): unknown => {
    const p = parsePath(source);
    if (typeof p === 'string') throw new Error(p);
    return readPath(value, p, limit);
  };

  it('keeps null values, which are present, apart from missing ones', () => {
    expect(read({ a: null }, 'a')).toBeNull();
    expect(() => read({}, 'a')).toThrow(PathMissError);
  });

  it('does not read keys through arrays or strings, nor inherited properties', () => {
    expect(() => read({ a: [1] }, 'a.length')).toThrow('missing at a.length');
    expect(() => read({ a: 'text' }, 'a.length')).toThrow('missing at a.length');
    expect(() => read({}, 'constructor')).toThrow('missing at constructor');
  });

  it('cuts a list before walking it', () => {
    expect(read({ xs: [{ v: 1 }, { v: 2 }, { v: 3 }] }, 'xs[].v', 2)).toEqual([1, 2]);
  });

  it('returns whole objects and arrays when the path ends on one', () => {
    expect(read({ a: { b: [1, 2] } }, 'a')).toEqual({ b: [1, 2] });
  });
});

describe('describeSite', () => {
  it('shows the model every operation with its parameters and returned fields, then patterns, login and tips', async () => {
    // Prepare
    const index = await KnowledgeIndex.load(resolve(import.meta.dirname, '../../../data/knowledgegraphindex'));
    const npm = index.site('npm');
    if (!npm) throw new Error('npm entry missing');
    // Act
    const text = describeSite(npm);
    // Assess
    expect(text).toContain('npm [site id: npm] (npmjs.com, registry.npmjs.org, api.npmjs.org) — developer, packages');
    expect(text).toContain('Login: not required (an account is needed for: publishing).');
    expect(text).toContain('Lookups (answer without a browser: call lookup with site "npm", an operation and params):');
    expect(text).toContain('- package: Latest published version of an unscoped npm package');
    expect(text).toContain('size (integer, optional, default 10, 1 to 25): Number of results');
    expect(text).toContain(
      'period (string, optional, one of last-day|last-week|last-month, default "last-week"): Time window',
    );
    expect(text).toContain('returns: name, version, description, license, homepage, dependencies');
    expect(text).toContain('- https://www.npmjs.com/package/{name}: package page');
    // The registry endpoints are recipes now; only the full-metadata endpoint is left to list.
    expect(text).toContain(
      'Other public endpoints:\n- GET https://registry.npmjs.org/{name}: package metadata with all versions (auth: none)',
    );
    expect(text).not.toContain('- GET https://registry.npmjs.org/{name}/latest');
    expect(text).toContain('Tips:\n- npmjs.com pages are sometimes behind a bot challenge');
  });

  it('describes a site without recipes by its pages only', async () => {
    const index = await KnowledgeIndex.load(resolve(import.meta.dirname, '../../../data/knowledgegraphindex'));
    const quora = index.site('quora');
    if (!quora) throw new Error('quora entry missing');
    const text = describeSite(quora);
    expect(text).not.toContain('Lookups');
    expect(text).toContain(
      'Login: required (an account is needed for: reading more than a few answers, search). A sign-in wall appears after a short while.',
    );
  });
});
