import { describe, expect, it } from 'vitest';
import { parseEntry } from '../../../lib/knowledge/index.js';
import { isHostname, type SiteEntryInput } from '../../../lib/knowledge/schemas.js';

/** A valid entry with one recipe; each case below breaks exactly one thing. */
type Lookup = NonNullable<SiteEntryInput['lookups']>[number];
const recipe = (over: Partial<Lookup> = {}): Lookup => ({
  name: 'item',
  description: 'One item',
  params: { id: { type: 'string', description: 'Item id', required: true } },
  url: 'https://api.demo.example/items/{id}',
  format: 'json',
  fields: { title: 'title' },
  docs: 'https://demo.example/docs',
  ...over,
});
const entry = (over: Partial<SiteEntryInput> = {}): SiteEntryInput => ({
  site: 'demo',
  name: 'Demo',
  domains: ['demo.example'],
  login: { required: false },
  lookups: [recipe()],
  ...over,
});
const check = (e: unknown) => () => parseEntry('demo.json', JSON.stringify(e));

describe('site entries that load', () => {
  it('accept the full format, including optional query pairs, slashes, lists and text recipes', () => {
    // Prepare
    const e = entry({
      lookups: [
        recipe({
          url: 'https://api.demo.example/{path}/items?q={q}&lang={lang}&sort={sort}',
          params: {
            path: { type: 'string', description: 'Path', required: true, slashes: true },
            q: { type: 'string', description: 'Query', required: true },
            lang: { type: 'string', description: 'Language', default: 'en', enum: ['en', 'fr'] },
            sort: { type: 'string', description: 'Sort key' },
          },
          fields: { names: 'results[].name', first: 'results[0].name?', last: 'results[-1].meta.created at' },
          limit: 20,
        }),
        recipe({
          name: 'readme',
          url: 'https://demo.example/readme.txt',
          params: {},
          format: 'text',
          fields: undefined,
        }),
      ],
    });
    // Act
    const parsed = check(e)();
    // Assess
    expect(parsed.lookups.map((op) => op.name)).toEqual(['item', 'readme']);
    expect(parsed.lookups[0]?.params.sort?.required).toBe(false);
  });
});

describe('site entries that are refused on load', () => {
  it.each([
    [
      'an unknown key in a recipe',
      entry({ lookups: [{ ...recipe(), method: 'GET' } as Lookup] }),
      'Unrecognized key: "method"',
    ],
    [
      'an unknown key in a parameter',
      entry({
        lookups: [
          recipe({ params: { id: { type: 'string', description: 'x', required: true, format: 'uuid' } as never } }),
        ],
      }),
      'Unrecognized key: "format"',
    ],
    [
      'an upper-case domain',
      entry({ domains: ['Demo.example'] }),
      '"Demo.example" is not a well-formed lower-case hostname',
    ],
    [
      'a domain listed twice',
      entry({ domains: ['demo.example', 'demo.example'] }),
      'domain demo.example is listed twice',
    ],
    ['two operations with one name', entry({ lookups: [recipe(), recipe()] }), 'operation name "item" is used twice'],
    [
      'an undeclared placeholder',
      entry({ lookups: [recipe({ url: 'https://api.demo.example/items/{id}/{part}' })] }),
      'url uses {part}, which is not a declared parameter',
    ],
    [
      'a declared parameter the url never uses',
      entry({
        lookups: [
          recipe({
            params: {
              id: { type: 'string', description: 'x', required: true },
              extra: { type: 'string', description: 'y', required: true },
            },
          }),
        ],
      }),
      'parameter extra is declared but the url never uses it',
    ],
    [
      'an optional path parameter without a default',
      entry({ lookups: [recipe({ params: { id: { type: 'string', description: 'x' } } })] }),
      'parameter id fills the url outside a "key={id}" query pair, so it must be required or have a default',
    ],
    [
      'a plain-http recipe url',
      entry({ lookups: [recipe({ url: 'http://api.demo.example/items/{id}' })] }),
      'url must be an https URL',
    ],
    [
      'a placeholder in the host',
      entry({ lookups: [recipe({ url: 'https://{id}.demo.example/items' })] }),
      'url must be an https URL with a literal host',
    ],
    [
      'a fragment in the url',
      entry({ lookups: [recipe({ url: 'https://api.demo.example/items/{id}#top' })] }),
      'no fragment',
    ],
    [
      'an unclosed placeholder',
      entry({ lookups: [recipe({ url: 'https://api.demo.example/items/{id' })] }),
      'has a "{" without "}"',
    ],
    [
      "a recipe on another site's host",
      entry({ lookups: [recipe({ url: 'https://api.other.example/items/{id}' })] }),
      "url host api.other.example is not one of the site's domains",
    ],
    [
      'a plain-http docs link',
      entry({ lookups: [recipe({ docs: 'http://demo.example/docs' })] }),
      '"http://demo.example/docs" is not an https URL',
    ],
    [
      'a json recipe without fields',
      entry({ lookups: [recipe({ fields: {} })] }),
      'a json recipe needs at least one field',
    ],
    [
      'a text recipe with fields',
      entry({ lookups: [recipe({ format: 'text' })] }),
      'a text recipe returns the text itself and takes no fields',
    ],
    ['a limit without a list field', entry({ lookups: [recipe({ limit: 5 })] }), 'limit is set but no field is a list'],
    [
      'a malformed path',
      entry({ lookups: [recipe({ fields: { title: 'items[x].title' } })] }),
      'path "items[x].title" has "[x]"; only [n], [-n] and [] are allowed',
    ],
    ['two lists in one path', entry({ lookups: [recipe({ fields: { t: 'a[].b[].c' } })] }), 'has more than one "[]"'],
    [
      'a default outside the enum',
      entry({
        lookups: [
          recipe({
            url: 'https://api.demo.example/items?lang={lang}',
            params: { lang: { type: 'string', description: 'x', enum: ['en'], default: 'de' } },
          }),
        ],
      }),
      'default "de" must be one of en',
    ],
    [
      'a default of the wrong type',
      entry({
        lookups: [
          recipe({
            url: 'https://api.demo.example/items?n={n}',
            params: { n: { type: 'integer', description: 'x', default: '5' } },
          }),
        ],
      }),
      'default "5" is not of type integer',
    ],
    [
      'a required parameter with a default',
      entry({
        lookups: [recipe({ params: { id: { type: 'string', description: 'x', required: true, default: 'a' } } })],
      }),
      'a required parameter cannot have a default',
    ],
    [
      'a pattern on a number',
      entry({
        lookups: [recipe({ params: { id: { type: 'integer', description: 'x', required: true, pattern: '\\d+' } } })],
      }),
      'pattern, maxLength and slashes apply to strings only',
    ],
    [
      'minimum above maximum',
      entry({
        lookups: [
          recipe({ params: { id: { type: 'integer', description: 'x', required: true, minimum: 5, maximum: 1 } } }),
        ],
      }),
      'minimum is greater than maximum',
    ],
    [
      'an invalid regular expression',
      entry({
        lookups: [recipe({ params: { id: { type: 'string', description: 'x', required: true, pattern: '([a-z' } } })],
      }),
      'is not a valid regular expression',
    ],
    [
      'slashes on a query parameter',
      entry({
        lookups: [
          recipe({
            url: 'https://api.demo.example/items?id={id}',
            params: { id: { type: 'string', description: 'x', required: true, slashes: true } },
          }),
        ],
      }),
      'has slashes but is not used in the path',
    ],
  ])('%s', (_label, e, message) => {
    // Assess
    expect(check(e)).toThrow(message);
  });
});

describe('isHostname', () => {
  it.each([
    ['example.com', true],
    ['api.example.co.uk', true],
    ['xn--bcher-kva.example', true],
    ['localhost', false],
    ['127.0.0.1', false],
    ['Example.com', false],
    ['example.com.', false],
    ['exa_mple.com', false],
    ['-example.com', false],
    ['example.com:8080', false],
  ])('%s → %s', (host, ok) => {
    expect(isHostname(host)).toBe(ok);
  });
});
