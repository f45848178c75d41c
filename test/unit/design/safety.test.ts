import { describe, expect, it } from 'vitest';
import { storedType } from '../../../lib/design/asset-type.js';
import { cssUrls, declarations, fontFaceBlocks, parseFontFaces } from '../../../lib/design/font-face.js';
import { capInlineFields, MAX_INLINE_DATA_URI_CHARS, MAX_INLINE_SVG_CHARS } from '../../../lib/design/inline-cap.js';

describe('@font-face parsing', () => {
  it('reads families, weights and urls past comments, strings and data URIs with semicolons', () => {
    const css = `/* @font-face { font-family: Fake } */
      @font-face { font-family: "Brand Sans"; src: url("a;b.woff2") format("woff2"), url(data:font/woff;base64,AA;BB) ; font-weight: 300 700 }
      .x { content: "@font-face {" }
      @FONT-FACE{font-family:'Mono';src:url( mono.ttf )}`;
    const faces = parseFontFaces(css, 'https://site.example/css/');
    expect(faces.map((f) => [f.family, f.weightMin, f.weightMax])).toEqual([
      ['Brand Sans', 300, 700],
      ['Mono', 400, 400],
    ]);
    expect(faces[0]?.urls).toEqual(['https://site.example/css/a;b.woff2', 'data:font/woff;base64,AA;BB']);
    expect(faces[1]?.urls).toEqual(['https://site.example/css/mono.ttf']);
    expect(declarations(' a : 1 ; b: url(x;y) ').get('b')).toBe('url(x;y)');
    expect(cssUrls('url(  "q.woff" ) url(r.otf)')).toEqual(['q.woff', 'r.otf']);
  });

  it('stays linear on hostile CSS: unclosed rules, comments and urls', () => {
    // Each of these took quadratic time with the old regular expressions.
    const hostile = [
      '@font-face{'.repeat(100_000),
      '/*'.repeat(200_000),
      `@font-face{src:${'url('.repeat(100_000)}`,
    ].join('');
    const started = performance.now();
    const blocks = fontFaceBlocks(hostile);
    parseFontFaces(hostile, 'https://x.example/');
    expect(blocks.length).toBeGreaterThan(0);
    // Generous: the quadratic version needs minutes for this input.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('stored asset types', () => {
  const bytes = (...b: number[]): Uint8Array => new Uint8Array([...b, ...new Array(16).fill(0)]);
  it.each([
    ['png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), 'image/png', undefined],
    ['jpeg', bytes(0xff, 0xd8, 0xff, 0xe0), 'image/jpeg', undefined],
    ['gif', Buffer.from('GIF89a......'), 'image/gif', undefined],
    ['woff2', Buffer.from('wOF2........'), 'font/woff2', undefined],
    [
      'svg',
      Buffer.from('<?xml version="1.0"?>\n<!-- x --><svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      'image/svg+xml',
      'attachment',
    ],
    ['html claiming png', Buffer.from('<html><script>x()</script></html>'), 'application/octet-stream', 'attachment'],
    ['javascript', Buffer.from('alert(document.cookie)'), 'application/octet-stream', 'attachment'],
  ])('%s is stored as %s', (_name, body, type, disposition) => {
    const t = storedType(body);
    expect(t.contentType).toBe(type);
    expect(t.disposition).toBe(disposition);
  });
});

describe('inline field caps', () => {
  it('cuts large data URIs and SVG markup, marking what was cut, and leaves small ones alone', () => {
    const big = `data:image/png;base64,${'A'.repeat(MAX_INLINE_DATA_URI_CHARS + 1)}`;
    const results: Record<string, unknown> = {
      images: {
        images: [
          { src: big, originalSrc: big, svgSource: `<svg>${'x'.repeat(MAX_INLINE_SVG_CHARS)}</svg>` },
          { src: 'data:image/png;base64,AAAA' },
        ],
      },
      logo: { logo: { found: true, src: big } },
      icons: { icons: [{ source: '<svg/>' }] },
    };
    capInlineFields(results);
    const [first, second] = (results.images as { images: Record<string, unknown>[] }).images;
    expect(first).toMatchObject({
      src: 'data:image/png;base64,',
      originalSrc: 'data:image/png;base64,',
      truncated: ['src', 'originalSrc', 'svgSource'],
    });
    expect(String(first?.svgSource).endsWith('<!-- truncated -->')).toBe(true);
    expect(second).toEqual({ src: 'data:image/png;base64,AAAA' });
    expect((results.logo as { logo: Record<string, unknown> }).logo).toMatchObject({
      src: 'data:image/png;base64,',
      truncated: ['src'],
    });
    expect((results.icons as { icons: Record<string, unknown>[] }).icons[0]).toEqual({ source: '<svg/>' });
  });
});
