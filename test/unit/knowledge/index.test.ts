import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeIndex } from '../../../lib/knowledge/index.js';
import { isHostname, type SiteEntryInput, SiteEntrySchema } from '../../../lib/knowledge/schemas.js';
import { parseTemplate } from '../../../lib/knowledge/template.js';

const INDEX_DIR = resolve(import.meta.dirname, '../../../data/knowledgegraphindex');

let index: KnowledgeIndex;
beforeAll(async () => {
  index = await KnowledgeIndex.load(INDEX_DIR);
});

describe('the shipped knowledge graph', () => {
  it('has at least 150 sites, at least 60 of them with lookup recipes', () => {
    // Assess
    expect(index.entries.length).toBeGreaterThanOrEqual(150);
    expect(index.entries.filter((e) => e.lookups.length > 0).length).toBeGreaterThanOrEqual(60);
  });

  it('uses unique site ids and gives each domain to one site only', () => {
    // Prepare
    const ids = index.entries.map((e) => e.site);
    const domains = index.entries.flatMap((e) => e.domains);
    // Assess
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(domains).size).toBe(domains.length);
  });

  it('lists only well-formed host names as domains', () => {
    // Assess
    expect(index.entries.flatMap((e) => e.domains.filter((d) => !isHostname(d)).map((d) => `${e.site}: ${d}`))).toEqual(
      [],
    );
  });

  it('declares every placeholder of every recipe URL, uses every declared parameter, and stays on https', () => {
    // Prepare
    const problems: string[] = [];
    for (const e of index.entries) {
      for (const op of e.lookups) {
        const t = parseTemplate(op.url);
        if (typeof t === 'string') {
          problems.push(`${e.site}/${op.name}: ${t}`);
          continue;
        }
        const declared = Object.keys(op.params);
        for (const n of t.names) if (!declared.includes(n)) problems.push(`${e.site}/${op.name}: {${n}} undeclared`);
        for (const n of declared) if (!t.names.includes(n)) problems.push(`${e.site}/${op.name}: ${n} unused`);
        if (!op.url.startsWith('https://') || !op.docs.startsWith('https://'))
          problems.push(`${e.site}/${op.name}: not https`);
      }
    }
    // Assess
    expect(problems).toEqual([]);
  });

  it('re-validates cleanly: every stored entry is a fixed point of the schema', () => {
    // Assess: parsing a parsed entry again must not fail or change it (no hidden defaults drift).
    for (const e of index.entries) expect(SiteEntrySchema.parse(e)).toEqual(e);
  });
});

describe('KnowledgeIndex.search', () => {
  it.each([
    ['github.com', 'github'],
    ['https://pypi.org/project/requests', 'pypi'],
    ['geocode an address', 'openstreetmap'],
    ['weather forecast for Lyon', 'open-meteo'],
    ['What is the latest version of the express package on npm?', 'npm'],
    ['Top story on Hacker News right now', 'hackernews'],
    // A more specific domain outranks its parent domain.
    ['https://books.google.com/books?id=abc', 'google-books'],
    // `x.com` inside `netflix.com` is not a mention of X.
    ['https://www.netflix.com/title/80057281', 'netflix'],
  ])('%s → %s', (query, site) => {
    // Act
    const [best] = index.search(query, 1);
    // Assess
    expect(best?.site).toBe(site);
  });

  it('matches operations by their names and descriptions', () => {
    // Act: "spot price" appears only in the coinbase recipe's name and description.
    const hits = index.search('spot price', 3).map((e) => e.site);
    // Assess
    expect(hits[0]).toBe('coinbase');
  });

  it('returns nothing for words no entry knows, and honours the limit', () => {
    // Assess
    expect(index.search('zzzz qqqq')).toEqual([]);
    expect(index.search('package', 4)).toHaveLength(4);
  });
});

describe('KnowledgeIndex.operation', () => {
  it('finds a recipe by site and name, and nothing for unknown ones', () => {
    // Assess
    expect(index.operation('npm', 'package')?.url).toBe('https://registry.npmjs.org/{name}/latest');
    expect(index.operation('npm', 'nope')).toBeUndefined();
    expect(index.operation('nope', 'package')).toBeUndefined();
    expect(index.operation('amazon', 'package')).toBeUndefined();
  });
});

const entry = (over: Partial<SiteEntryInput> = {}): SiteEntryInput => ({
  site: 'demo',
  name: 'Demo',
  domains: ['demo.example'],
  login: { required: false },
  ...over,
});

describe('KnowledgeIndex.load refuses a bad data directory', () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function dirWith(files: Record<string, string>): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'kg-'));
    await mkdir(join(dir, 'sites'));
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, 'sites', name), text);
    return dir;
  }

  it.each([
    ['a file that is not JSON', { 'demo.json': '{ nope' }, 'Invalid knowledge entry demo.json: not JSON'],
    [
      'an unknown key',
      { 'demo.json': JSON.stringify({ ...entry(), homepage: 'https://demo.example' }) },
      'Invalid knowledge entry demo.json: (entry): Unrecognized key: "homepage"',
    ],
    [
      'a site id that differs from the file name',
      { 'other.json': JSON.stringify(entry()) },
      'the site id "demo" must match the file name',
    ],
    [
      'a domain claimed by two sites',
      {
        'demo.json': JSON.stringify(entry()),
        'demo2.json': JSON.stringify(entry({ site: 'demo2', domains: ['demo.example'] })),
      },
      'The domain demo.example is claimed by both "demo" and "demo2".',
    ],
  ])('%s', async (_label, files, message) => {
    // Act
    const attempt = KnowledgeIndex.load(await dirWith(files));
    // Assess
    await expect(attempt).rejects.toThrow(message);
  });

  it('loads a minimal valid entry with defaults filled in', async () => {
    // Act
    const kg = await KnowledgeIndex.load(
      await dirWith({ 'demo.json': JSON.stringify(entry()), 'notes.txt': 'ignored' }),
    );
    // Assess
    expect(kg.entries).toEqual([
      {
        ...entry(),
        categories: [],
        goals: [],
        urlPatterns: [],
        publicEndpoints: [],
        login: { required: false, for: [] },
        tips: [],
        lookups: [],
      },
    ]);
  });

  it('refuses two entries with the same site id when built directly', () => {
    // Prepare
    const e = SiteEntrySchema.parse(entry());
    // Assess
    expect(() => new KnowledgeIndex([e, { ...e, domains: ['other.example'] }])).toThrow(
      'Two knowledge entries use the site id "demo".',
    );
  });
});
