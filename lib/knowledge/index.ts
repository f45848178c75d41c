import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidEntryError } from './errors.js';
import { type Lookup, type SiteEntry, SiteEntrySchema } from './schemas.js';

// The entry types travel with the index, as they did from lib/browser/knowledge.ts.
export { SiteEntrySchema, type Lookup, type SiteEntry };

/**
 * The bundled knowledge graph: one JSON file per site under `<dir>/sites/`, every file
 * validated on load (an invalid one stops loading with the file and the field at fault).
 * Search matches a site by domain or name, or a goal or operation by keywords.
 */
const STOP = new Set([
  'the',
  'a',
  'an',
  'on',
  'of',
  'to',
  'for',
  'in',
  'and',
  'or',
  'how',
  'i',
  'do',
  'find',
  'get',
  'with',
  'from',
  'www',
  'com',
  'org',
  'is',
  'what',
  'by',
]);
const tokens = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1 && !STOP.has(t));

/** `domain` appears in `text` as a whole host name (or the tail of one): `x.com` is not in `netflix.com`. */
function mentionsDomain(text: string, domain: string): boolean {
  for (let at = text.indexOf(domain); at >= 0; at = text.indexOf(domain, at + 1)) {
    const before = text[at - 1];
    const after = text[at + domain.length];
    if ((before === undefined || !/[a-z0-9-]/.test(before)) && (after === undefined || !/[a-z0-9-]/.test(after)))
      return true;
  }
  return false;
}

/** The words of `phrase` appear consecutively in `words`. */
function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  for (let i = 0; i + phrase.length <= words.length; i++) if (phrase.every((w, j) => words[i + j] === w)) return true;
  return false;
}

export class KnowledgeIndex {
  private readonly bySite: Map<string, SiteEntry>;

  constructor(readonly entries: SiteEntry[]) {
    this.bySite = new Map();
    const domainOwner = new Map<string, string>();
    for (const e of entries) {
      if (this.bySite.has(e.site)) throw new InvalidEntryError(`Two knowledge entries use the site id "${e.site}".`);
      this.bySite.set(e.site, e);
      for (const d of e.domains) {
        const owner = domainOwner.get(d);
        if (owner) throw new InvalidEntryError(`The domain ${d} is claimed by both "${owner}" and "${e.site}".`);
        domainOwner.set(d, e.site);
      }
    }
  }

  static async load(dir: string): Promise<KnowledgeIndex> {
    const sitesDir = join(dir, 'sites');
    const files = (await readdir(sitesDir)).filter((f) => f.endsWith('.json')).sort();
    const entries = await Promise.all(files.map(async (f) => parseEntry(f, await readFile(join(sitesDir, f), 'utf8'))));
    return new KnowledgeIndex(entries);
  }

  site(id: string): SiteEntry | undefined {
    return this.bySite.get(id);
  }

  operation(site: string, name: string): Lookup | undefined {
    return this.bySite.get(site)?.lookups.find((op) => op.name === name);
  }

  /**
   * Best matches first: a domain in the query outweighs the site's name, which outweighs
   * keyword hits in name/domains, categories, goals, operations, URL purposes and tips.
   */
  search(query: string, limit = 5): SiteEntry[] {
    const q = query.toLowerCase();
    const words = tokens(query);
    const scored = this.entries.map((e) => {
      let score = 0;
      // The longest matching domain wins ties: books.google.com is more specific than google.com.
      const domainHit = e.domains.filter((d) => mentionsDomain(q, d)).reduce((best, d) => Math.max(best, d.length), 0);
      if (domainHit > 0) score += 100 + domainHit;
      if (containsPhrase(words, tokens(e.name)) || words.includes(e.site)) score += 50;
      const fields: [string[], number][] = [
        [[e.name, ...e.domains], 10],
        [e.categories, 4],
        [e.goals, 3],
        [e.lookups.flatMap((op) => [op.name, op.description]), 2],
        [e.urlPatterns.map((p) => p.purpose), 1],
        [e.tips, 1],
      ];
      for (const [texts, weight] of fields) {
        const bag = new Set(texts.flatMap(tokens));
        score += words.filter((w) => bag.has(w)).length * weight;
      }
      return { e, score };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map((s) => s.e);
  }
}

/** Parses and validates one file; `file` must be `<site>.json`. */
export function parseEntry(file: string, text: string): SiteEntry {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new InvalidEntryError(`Invalid knowledge entry ${file}: not JSON (${(err as Error).message}).`, err);
  }
  const parsed = SiteEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`).join('; ');
    throw new InvalidEntryError(`Invalid knowledge entry ${file}: ${issues}.`);
  }
  if (`${parsed.data.site}.json` !== file)
    throw new InvalidEntryError(
      `Invalid knowledge entry ${file}: the site id "${parsed.data.site}" must match the file name.`,
    );
  return parsed.data;
}
