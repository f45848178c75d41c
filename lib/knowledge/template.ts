/**
 * URL templates of recipes: `https://host/path/{param}?key={param}&fixed=1`.
 *
 * The scheme and host are literal (a placeholder there would let a parameter pick the
 * server). Every value is percent-encoded as a URI component on expansion, so a value
 * can never add a path segment, a query pair or a fragment; the one exception is a
 * string parameter declared with `slashes: true`, whose `/` separate encoded segments
 * (repository file paths, Go module paths). A query pair whose whole value is one
 * placeholder (`&key={p}`) is dropped when an optional parameter is absent.
 */
export type TemplatePart = { kind: 'literal'; text: string } | { kind: 'param'; name: string };

export interface QueryPair {
  parts: TemplatePart[];
  /** Set when the pair is exactly `key={name}`: dropped if the value is absent. */
  droppableFor?: string;
}

export interface ParsedTemplate {
  origin: string;
  host: string;
  path: TemplatePart[];
  query: QueryPair[];
  /** Placeholder names in order of first use. */
  names: string[];
  /** Names used in the path (they fill URL segments, so `.` and `..` are refused). */
  pathNames: Set<string>;
}

export const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

function splitParts(text: string): TemplatePart[] | string {
  const parts: TemplatePart[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    const close = text.indexOf('}', i);
    if (open < 0) {
      if (close >= 0) return `has a "}" without "{"`;
      parts.push({ kind: 'literal', text: text.slice(i) });
      break;
    }
    if (close >= 0 && close < open) return `has a "}" without "{"`;
    if (open > i) parts.push({ kind: 'literal', text: text.slice(i, open) });
    const end = text.indexOf('}', open);
    if (end < 0) return `has a "{" without "}"`;
    const name = text.slice(open + 1, end);
    if (!PARAM_NAME.test(name)) return `has the placeholder "{${name}}", which is not a parameter name`;
    parts.push({ kind: 'param', name });
    i = end + 1;
  }
  return parts;
}

/** Parses a template, or returns the reason it is unusable as a sentence fragment. */
export function parseTemplate(template: string): ParsedTemplate | string {
  if (/\s/.test(template)) return 'must not contain whitespace';
  const m = /^https:\/\/([^/?#{}]+)(\/[^?#]*)?(?:\?([^#]*))?$/.exec(template);
  if (!m) return 'must be an https URL with a literal host, a path starting with "/" and no fragment';
  const [, authority = '', pathText = '/', queryText] = m;
  let base: URL;
  try {
    base = new URL(`https://${authority}/`);
  } catch {
    return `has an invalid host "${authority}"`;
  }
  if (base.username || base.password) return 'must not carry credentials';
  const path = splitParts(pathText);
  if (typeof path === 'string') return path;
  const query: QueryPair[] = [];
  for (const pairText of queryText === undefined || queryText === '' ? [] : queryText.split('&')) {
    const parts = splitParts(pairText);
    if (typeof parts === 'string') return parts;
    const [key, value, extra] = parts;
    const droppable =
      parts.length === 2 && key?.kind === 'literal' && /^[^=]+=$/.test(key.text) && value?.kind === 'param' && !extra;
    query.push(droppable && value?.kind === 'param' ? { parts, droppableFor: value.name } : { parts });
  }
  const names: string[] = [];
  for (const p of [...path, ...query.flatMap((q) => q.parts)])
    if (p.kind === 'param' && !names.includes(p.name)) names.push(p.name);
  const pathNames = new Set(path.flatMap((p) => (p.kind === 'param' ? [p.name] : [])));
  return { origin: base.origin, host: base.hostname, path, query, names, pathNames };
}

/** Names that must always have a value: everywhere except a droppable query pair. */
export function namesNeedingValue(t: ParsedTemplate): Set<string> {
  const need = new Set(t.pathNames);
  for (const q of t.query) if (!q.droppableFor) for (const p of q.parts) if (p.kind === 'param') need.add(p.name);
  return need;
}

export type ParamValue = string | number | boolean;

function encodeValue(value: ParamValue, slashes: boolean): string {
  const text = String(value);
  return slashes ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text);
}

/**
 * Fills the template. `values` must already be validated (types, required, defaults);
 * `slashes` lists the parameters whose `/` stay separators. The result keeps the
 * template's origin by construction, which is checked once more as a last guard.
 */
export function expandTemplate(
  t: ParsedTemplate,
  values: Readonly<Record<string, ParamValue | undefined>>,
  slashes: ReadonlySet<string> = new Set(),
): string {
  const fill = (parts: TemplatePart[]): string =>
    parts
      .map((p) => {
        if (p.kind === 'literal') return p.text;
        const v = values[p.name];
        if (v === undefined) throw new Error(`No value for {${p.name}}`);
        return encodeValue(v, slashes.has(p.name));
      })
      .join('');
  const pairs = t.query
    .filter((q) => !(q.droppableFor && values[q.droppableFor] === undefined))
    .map((q) => fill(q.parts));
  const url = `${t.origin}${fill(t.path)}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`;
  if (new URL(url).origin !== t.origin) throw new Error(`Expanded URL left ${t.origin}`);
  return url;
}
