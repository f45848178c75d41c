import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { formatIssues } from '../validation.js';

/**
 * The bundled knowledge-graph index: one JSON file per site under `<dir>/sites/`, each
 * validated here (format documented in data/knowledgegraphindex/README.md). Lookups
 * match a site by domain or name, or a goal by keywords.
 */
export const SiteEntrySchema = z.object({
  site: z.string().min(1),
  name: z.string().min(1),
  domains: z.array(z.string().min(1)).min(1),
  categories: z.array(z.string()).default([]),
  goals: z.array(z.string()).default([]),
  urlPatterns: z.array(z.object({ pattern: z.string(), purpose: z.string() })).default([]),
  publicEndpoints: z
    .array(z.object({ method: z.enum(['GET', 'POST']).default('GET'), url: z.string(), purpose: z.string(), auth: z.string().default('none') }))
    .default([]),
  login: z.object({ required: z.boolean(), for: z.array(z.string()).default([]), notes: z.string().optional() }),
  tips: z.array(z.string()).default([]),
});
export type SiteEntry = z.infer<typeof SiteEntrySchema>;

const STOP = new Set(['the', 'a', 'an', 'on', 'of', 'to', 'for', 'in', 'and', 'or', 'how', 'i', 'do', 'find', 'get', 'with', 'from', 'www', 'com', 'org']);
const tokens = (s: string): string[] => s.toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length > 1 && !STOP.has(t));

export class KnowledgeIndex {
  constructor(readonly entries: SiteEntry[]) {}

  static async load(dir: string): Promise<KnowledgeIndex> {
    const sitesDir = join(dir, 'sites');
    const files = (await readdir(sitesDir)).filter((f) => f.endsWith('.json')).sort();
    const entries = await Promise.all(
      files.map(async (f) => {
        const parsed = SiteEntrySchema.safeParse(JSON.parse(await readFile(join(sitesDir, f), 'utf8')));
        if (!parsed.success) throw new Error(`Invalid knowledge entry ${f}: ${formatIssues(parsed.error.issues, { all: true })}`);
        return parsed.data;
      }),
    );
    return new KnowledgeIndex(entries);
  }

  /** Best matches first: a domain or site name in the query outweighs keyword hits in goals and tips. */
  search(query: string, limit = 5): SiteEntry[] {
    const q = query.toLowerCase();
    const words = tokens(query);
    const scored = this.entries.map((e) => {
      let score = 0;
      if (e.domains.some((d) => q.includes(d))) score += 100;
      if (q.includes(e.name.toLowerCase()) || words.includes(e.site.toLowerCase())) score += 50;
      const fields: [string[], number][] = [
        [[e.name, ...e.domains], 10],
        [e.categories, 4],
        [e.goals, 3],
        [e.urlPatterns.map((p) => p.purpose), 1],
        [e.tips, 1],
      ];
      for (const [texts, weight] of fields) {
        const bag = new Set(texts.flatMap(tokens));
        score += words.filter((w) => bag.has(w)).length * weight;
      }
      return { e, score };
    });
    return scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score).slice(0, limit).map((s) => s.e);
  }
}
