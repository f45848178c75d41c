import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeIndex } from '../../../lib/knowledge/index.js';
import { SEARCH_URL, pickStart } from '../../../lib/agent/prompt.js';

/** Discovery without `startUrl`, against the knowledge index the product ships. */
let index: KnowledgeIndex;
beforeAll(async () => {
  index = await KnowledgeIndex.load(resolve(import.meta.dirname, '../../../data/knowledgegraphindex'));
});

describe('pickStart', () => {
  it.each([
    ['What is the latest version of the express package on npm?', 'npm'],
    ['Find the Wikipedia article about the Eiffel Tower and give its height', 'wikipedia'],
    ['Top story on Hacker News right now', 'hackernews'],
  ])('%s → a fast path into the %s entry', (task, siteFile) => {
    const start = pickStart(task, index);
    expect(start.via).toBe('fast_path');
    expect(start.site?.site).toBe(siteFile);
    expect(start.url).toMatch(/^https:\/\//);
  });

  it('falls back to a web search for a task no indexed site matches', () => {
    const start = pickStart('zqxv blorptangle frobnicator 8172', index);
    expect(start).toEqual({
      url: `${SEARCH_URL}${encodeURIComponent('zqxv blorptangle frobnicator 8172')}`,
      via: 'search',
    });
  });
});
