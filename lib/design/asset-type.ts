/**
 * The type an asset is stored with, decided from its bytes, never from what the page
 * claims: a page must not be able to hand out HTML or script from our bucket. Images and
 * fonts of known formats keep their type; SVG (which can carry script) and anything else
 * are stored for download only (`Content-Disposition: attachment`).
 */
export interface StoredType {
  contentType: string;
  /** `attachment` makes browsers save the object instead of rendering it on our origin. */
  disposition?: 'attachment';
  extension: string;
}

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean => sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number): string => Buffer.from(b.subarray(from, to)).toString('latin1');

/** Magic numbers of the formats we hand out inline. */
const SNIFFERS: readonly { type: string; extension: string; test: (b: Uint8Array) => boolean }[] = [
  {
    type: 'image/png',
    extension: '.png',
    test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { type: 'image/jpeg', extension: '.jpg', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', extension: '.gif', test: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  { type: 'image/webp', extension: '.webp', test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  {
    type: 'image/avif',
    extension: '.avif',
    test: (b) => ascii(b, 4, 8) === 'ftyp' && /^avi[fs]$/.test(ascii(b, 8, 12)),
  },
  { type: 'image/x-icon', extension: '.ico', test: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) },
  { type: 'font/woff2', extension: '.woff2', test: (b) => ascii(b, 0, 4) === 'wOF2' },
  { type: 'font/woff', extension: '.woff', test: (b) => ascii(b, 0, 4) === 'wOFF' },
  {
    type: 'font/ttf',
    extension: '.ttf',
    test: (b) => startsWith(b, [0x00, 0x01, 0x00, 0x00]) || ascii(b, 0, 4) === 'true',
  },
  { type: 'font/otf', extension: '.otf', test: (b) => ascii(b, 0, 4) === 'OTTO' },
];

/** An SVG document: XML whose root is <svg>, after an optional prolog, comments and doctype. */
function isSvg(b: Uint8Array): boolean {
  const head = ascii(b, 0, Math.min(b.length, 1024)).replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head);
}

export function storedType(body: Uint8Array): StoredType {
  for (const s of SNIFFERS) if (s.test(body)) return { contentType: s.type, extension: s.extension };
  if (isSvg(body)) return { contentType: 'image/svg+xml', disposition: 'attachment', extension: '.svg' };
  return { contentType: 'application/octet-stream', disposition: 'attachment', extension: '' };
}
