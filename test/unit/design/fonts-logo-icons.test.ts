import { describe, expect, it } from 'vitest';
import { faceUrlFor, fontSource, isIconFamily, isPrivateUse, parseFontFaces } from '../../../lib/design/font-face.js';
import { summarizeFonts, type FontUse } from '../../../lib/design/fonts.js';
import { groupIcons } from '../../../lib/design/icons.js';
import { LOGO_MIN_SCORE, pickLogo, scoreLogo, type LogoCandidate } from '../../../lib/design/logo-score.js';

describe('@font-face parsing and font sources', () => {
  const css = `/* c */ @font-face { font-family: "Inter"; font-weight: 100 900; src: url(inter.woff2) format("woff2"), url('inter.ttf'); }
    @font-face{font-family:Brand;font-style:italic;font-weight:bold;src:url(https://cdn.example/brand-i.woff)}
    @font-face { font-family: 'Brand'; src: local(Brand), url("/f/brand.woff2") format('woff2'); }`;
  const faces = parseFontFaces(css, 'https://site.example/css/app.css');

  it('reads family, weight range, style and absolute URLs', () => {
    expect(faces).toEqual([
      {
        family: 'Inter',
        weightMin: 100,
        weightMax: 900,
        style: 'normal',
        urls: ['https://site.example/css/inter.woff2', 'https://site.example/css/inter.ttf'],
      },
      { family: 'Brand', weightMin: 700, weightMax: 700, style: 'italic', urls: ['https://cdn.example/brand-i.woff'] },
      {
        family: 'Brand',
        weightMin: 400,
        weightMax: 400,
        style: 'normal',
        urls: ['https://site.example/f/brand.woff2'],
      },
    ]);
  });

  it('picks the face for a weight, normal style first, woff2 first', () => {
    expect(
      faceUrlFor(
        faces.filter((f) => f.family === 'Brand'),
        700,
      ),
    ).toBe('https://site.example/f/brand.woff2');
    expect(faceUrlFor(faces.slice(0, 1), 650)).toBe('https://site.example/css/inter.woff2');
    expect(faceUrlFor([], 400)).toBeUndefined();
  });

  it.each([
    ['https://fonts.gstatic.com/s/inter/v1/a.woff2', undefined, 'google'],
    ['https://x.example/a.woff2', 'https://fonts.googleapis.com/css2?family=Inter', 'google'],
    ['https://use.typekit.net/af/123/a.woff2', undefined, 'adobe'],
    ['https://cdn.fontshare.com/wf/X.woff2', undefined, 'fontshare'],
    ['https://site.example/a.woff2', undefined, 'self-hosted'],
    [undefined, undefined, 'system'],
  ])('%s via %s is %s', (face, sheet, want) => {
    expect(fontSource(face, sheet)).toBe(want);
  });

  it('recognizes icon fonts by name and Private Use Area text', () => {
    expect(isIconFamily('Font Awesome 6 Free')).toBe(true);
    expect(isIconFamily('Material Symbols Outlined')).toBe(true);
    expect(isIconFamily('Inter')).toBe(false);
    expect(isPrivateUse('\uf015')).toBe(true);
    expect(isPrivateUse('home')).toBe(false);
  });

  const use = (o: Partial<FontUse> & Pick<FontUse, 'family'>): FontUse => ({
    stack: o.family,
    rendered: o.family,
    weight: 400,
    usage: 'body',
    chars: 10,
    count: 1,
    pua: false,
    ...o,
  });

  it('summarizes families with weights, majority usage and drops icon fonts', () => {
    const fonts = summarizeFonts(
      [
        use({ family: 'Brand', stack: 'Brand, serif', weight: 700, usage: 'heading', chars: 40, count: 2 }),
        use({ family: 'Brand', stack: 'Brand, serif', weight: 400, usage: 'body', chars: 900, count: 9 }),
        use({ family: 'Material Icons', usage: 'ui', chars: 12, count: 3 }),
        use({ family: 'Fixture Glyphs', usage: 'ui', chars: 2, count: 2, pua: true }),
      ],
      faces.map((f) => ({ ...f, sheet: 'https://site.example/css/app.css' })),
    );
    expect(fonts).toEqual([
      {
        family: 'Brand',
        usage: 'body',
        usages: ['body', 'heading'],
        stack: ['Brand', 'serif'],
        rendered: 'Brand',
        count: 11,
        weights: [400, 700],
        source: 'self-hosted',
        faceUrl: 'https://site.example/f/brand.woff2',
      },
    ]);
  });

  it('reports the declared family whatever was painted, and system when no @font-face serves it', () => {
    // Prepare: the site asks for Georgia; this worker has none and painted DejaVu Serif.
    const uses = [
      use({ family: 'Georgia', stack: 'Georgia, "Times New Roman", serif', rendered: 'serif', chars: 500 }),
    ];
    // Act
    const [withGuess] = summarizeFonts(uses, []);
    const [withPainted] = summarizeFonts(uses, [], new Map([['georgia', 'DejaVu Serif']]));
    // Assess
    expect(withGuess).toMatchObject({
      family: 'Georgia',
      stack: ['Georgia', 'Times New Roman', 'serif'],
      rendered: 'serif',
      source: 'system',
    });
    expect(withPainted).toMatchObject({ family: 'Georgia', rendered: 'DejaVu Serif', source: 'system' });
    expect(withPainted?.faceUrl).toBeUndefined();
  });

  it('names the web-font service a face comes from', () => {
    const faces = parseFontFaces(
      '@font-face{font-family:Lexend;src:url(https://fonts.bunny.net/lexend/files/lexend-latin-400-normal.woff2)}',
      'https://site.example/',
    );
    const [f] = summarizeFonts(
      [use({ family: 'Lexend' })],
      faces.map((x) => ({ ...x, sheet: 'https://fonts.bunny.net/css?family=lexend' })),
    );
    expect(f).toMatchObject({ family: 'Lexend', source: 'bunny' });
  });
});

describe('logo scoring', () => {
  const base: LogoCandidate = {
    kind: 'img',
    src: 'https://site.example/logo.png',
    alt: 'Site',
    width: 160,
    height: 48,
    naturalWidth: 160,
    naturalHeight: 48,
    top: 16,
    left: 32,
    visible: true,
    inHeader: true,
    inFooter: false,
    linksHome: true,
    hint: 'logo.png',
    sameDomain: true,
    mentionsSiteName: true,
    inCookieBanner: false,
    inPartnerWall: false,
    inControl: false,
    besideHome: false,
    viewportArea: 1280 * 800,
  };

  it('scores a header logo linking home well above the floor', () => {
    expect(scoreLogo(base)).toBeGreaterThan(LOGO_MIN_SCORE + 8);
  });

  it.each([
    ['in a cookie banner', { inCookieBanner: true }],
    ['in a partner wall', { inPartnerWall: true }],
    ['inside a control (a theme toggle in a button)', { kind: 'svg' as const, src: '', inControl: true }],
    ['tiny', { width: 12, height: 12 }],
    ['invisible', { visible: false }],
    ['a hero-sized image', { width: 1280, height: 600 }],
  ])('rejects a candidate %s', (_n, patch) => {
    expect(scoreLogo({ ...base, ...patch })).toBe(-Infinity);
    expect(pickLogo([{ ...base, ...patch }])).toBeUndefined();
  });

  it('takes the mark beside the home link of a top bar, but not a plain image there', () => {
    const mark = {
      ...base,
      inHeader: false,
      linksHome: false,
      hint: 'py.png',
      alt: 'icon',
      mentionsSiteName: false,
      width: 16,
      height: 16,
      top: 8,
    };
    expect(pickLogo([{ ...mark, besideHome: true }])).toBeDefined();
    expect(pickLogo([mark])).toBeUndefined();
  });

  it('prefers the header logo over a footer copy, and finds none among plain content images', () => {
    const footer = { ...base, top: 3000, inHeader: false, inFooter: true };
    expect(pickLogo([footer, base])).toBe(base);
    const content = {
      ...base,
      inHeader: false,
      linksHome: false,
      hint: 'chart.png',
      mentionsSiteName: false,
      top: 400,
    };
    expect(pickLogo([content])).toBeUndefined();
  });
});

describe('icon grouping', () => {
  it('hashes the same glyph identically, counts uses and keeps the most common size', () => {
    const use = {
      kind: 'sprite' as const,
      canon: 'vb:0 0 24 24|path(d=M1 1)',
      source: '<svg/>',
      style: 'outline' as const,
    };
    const icons = groupIcons([
      { ...use, size: 20 },
      { ...use, size: 24 },
      { ...use, size: 24 },
      { kind: 'font', canon: 'font:FA:f015', source: 'font:FA:f015', size: 18, style: 'filled' },
    ]);
    expect(icons).toHaveLength(2);
    expect(icons[0]).toMatchObject({ kind: 'sprite', count: 3, size: 24, style: 'outline' });
    expect(icons[0]!.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(groupIcons([{ ...use, size: 10 }])[0]!.hash).toBe(icons[0]!.hash);
  });
});
