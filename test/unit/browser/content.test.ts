import { describe, expect, it } from 'vitest';
import type { PageDom } from '../../../lib/browser/dom.js';
import { extractWithSchema } from '../../../lib/browser/extract.js';
import { domToMarkdown, pageToMarkdown } from '../../../lib/browser/markdown.js';
import { summarizePage } from '../../../lib/browser/page-summary.js';

const page = (body: PageDom['body'], extra: Partial<PageDom> = {}): PageDom => ({
  url: 'http://x/',
  title: 'T',
  meta: [],
  jsonLd: [],
  body,
  ...extra,
});

describe('markdown', () => {
  it('converts blocks and inline marks, leaving chrome and controls out', () => {
    const md = domToMarkdown({
      t: 'body',
      c: [
        { t: 'nav', c: [{ t: 'a', a: { href: 'http://x/home' }, c: ['Home'] }] },
        { t: 'h2', c: ['Part *one*'] },
        { t: 'p', c: ['Hello ', { t: 'b', c: ['big'] }, ' ', { t: 'a', a: { href: 'http://x/w' }, c: ['world'] }] },
        {
          t: 'ol',
          c: [
            { t: 'li', c: ['a'] },
            { t: 'li', c: ['b', { t: 'ul', c: [{ t: 'li', c: ['b1'] }] }] },
          ],
        },
        { t: 'button', c: ['Buy'] },
        {
          t: 'table',
          c: [
            {
              t: 'tr',
              c: [
                { t: 'th', c: ['k'] },
                { t: 'th', c: ['v|w'] },
              ],
            },
            { t: 'tr', c: [{ t: 'td', c: ['1'] }] },
          ],
        },
      ],
    });
    expect(md).toBe(
      '## Part \\*one\\*\n\nHello **big** [world](http://x/w)\n\n1. a\n2. b\n  - b1\n\n| k | v\\|w |\n| --- | --- |\n| 1 |  |',
    );
  });

  it('prefers <main> and adds the title when the content has no h1', () => {
    const md = pageToMarkdown(
      page({
        t: 'body',
        c: [
          { t: 'p', c: ['outside'] },
          { t: 'main', c: [{ t: 'p', c: ['inside'] }] },
        ],
      }),
    );
    expect(md).toBe('# T\n\ninside');
  });
});

describe('page summary', () => {
  it('lists forms with labelled fields and submit buttons', () => {
    const s = summarizePage(
      page({
        t: 'body',
        c: [
          {
            t: 'form',
            a: { action: '/go', method: 'POST' },
            c: [
              { t: 'label', a: { for: 'q' }, c: ['Query'] },
              { t: 'input', a: { id: 'q', name: 'q', value: '' } },
              { t: 'button', c: ['Search'] },
            ],
          },
        ],
      }),
    );
    expect(s.forms).toEqual([
      { action: '/go', method: 'post', fields: [{ name: 'q', type: 'text', label: 'Query' }], submit: ['Search'] },
    ]);
  });
});

describe('extract', () => {
  it('reads labelled fields, JSON-LD nesting and coerces types', () => {
    const dom = page(
      {
        t: 'body',
        c: [
          {
            t: 'dl',
            c: [
              { t: 'dt', c: ['Rooms'] },
              { t: 'dd', c: ['3 rooms'] },
            ],
          },
          { t: 'p', c: ['Pets: yes'] },
        ],
      },
      { jsonLd: ['{"@type":"House","name":"Villa","offers":{"price":"1,200"}}', '{broken'] },
    );
    const out = extractWithSchema(dom, {
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'integer' },
        rooms: { type: 'number' },
        pets: { type: 'boolean' },
        missing: { type: 'string' },
      },
    });
    expect(out).toEqual({ name: 'Villa', price: 1200, rooms: 3, pets: true });
  });
});
