/**
 * Markup and data URIs copied out of a page can be megabytes (a base64 photo, an SVG
 * illustration); inlined whole they would swell every task read. Beyond these sizes the
 * field is cut, the entry says so in `truncated`, and the asset stays downloadable from
 * storage (`downloadUrl`).
 */
export const MAX_INLINE_DATA_URI_CHARS = 8 * 1024;
export const MAX_INLINE_SVG_CHARS = 64 * 1024;

type Entry = Record<string, unknown> & { truncated?: string[] };

function cut(entry: Entry, field: string, max: number, keep: (v: string) => string): void {
  const v = entry[field];
  if (typeof v !== 'string' || v.length <= max) return;
  entry[field] = keep(v);
  entry.truncated = [...(entry.truncated ?? []), field];
}

/** A data URI's header without its payload: `data:image/png;base64,`. */
const dataHeader = (v: string): string => v.slice(0, Math.max(0, v.indexOf(',') + 1)) || 'data:,';
const svgHead = (v: string): string => `${v.slice(0, MAX_INLINE_SVG_CHARS)}<!-- truncated -->`;

function capEntry(entry: Entry, fields: { dataUri?: string[]; svg?: string[] }): void {
  for (const f of fields.dataUri ?? []) {
    const v = entry[f];
    if (typeof v === 'string' && v.startsWith('data:')) cut(entry, f, MAX_INLINE_DATA_URI_CHARS, dataHeader);
  }
  for (const f of fields.svg ?? []) cut(entry, f, MAX_INLINE_SVG_CHARS, svgHead);
}

const entries = (v: unknown, key: string): Entry[] => {
  const list = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? (list.filter((e) => e && typeof e === 'object') as Entry[]) : [];
};

/** Caps the inline fields of extractor results in place (images, logo, icons). */
export function capInlineFields(results: Record<string, unknown>): void {
  for (const img of entries(results.images, 'images'))
    capEntry(img, { dataUri: ['src', 'originalSrc'], svg: ['svgSource'] });
  for (const icon of entries(results.icons, 'icons')) capEntry(icon, { svg: ['source'] });
  const logo = results.logo && typeof results.logo === 'object' ? (results.logo as { logo?: unknown }).logo : undefined;
  if (logo && typeof logo === 'object')
    capEntry(logo as Entry, { dataUri: ['src', 'originalSrc'], svg: ['svgSource'] });
}
