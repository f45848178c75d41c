import * as z from 'zod';
import { cleanText, descendants, elements, findAll, textOf, type DomNode, type PageDom } from './dom.js';
import { labelFor } from './page-summary.js';

/**
 * Structured data matching a JSON Schema, read from the page without a model: JSON-LD,
 * microdata, tables, lists and labelled fields (label/for, dt/dd, two-column rows,
 * "Key: value" text). Property names are matched loosely (case, punctuation, plurals).
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
}
export const JsonSchemaSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z
    .object({
      type: z.union([z.string(), z.array(z.string())]).optional(),
      properties: z.record(z.string(), JsonSchemaSchema).optional(),
      items: JsonSchemaSchema.optional(),
      required: z.array(z.string()).optional(),
    })
    .passthrough(),
);

type Rec = Record<string, unknown>;
const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/s$/, '');
const typeOf = (s: JsonSchema): string =>
  Array.isArray(s.type)
    ? (s.type.find((t) => t !== 'null') ?? 'string')
    : (s.type ?? (s.properties ? 'object' : s.items ? 'array' : 'string'));

function lookup(rec: Rec, key: string): unknown {
  const k = norm(key);
  const exact = Object.keys(rec).find((x) => norm(x) === k);
  if (exact !== undefined) return rec[exact];
  const loose = Object.keys(rec).find((x) => norm(x).length > 2 && (norm(x).includes(k) || k.includes(norm(x))));
  if (loose !== undefined) return rec[loose];
  // schema.org nests common facts one level down (offers.price, author.name, address.city).
  for (const v of Object.values(rec)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some((x) => norm(x) === k))
      return lookup(v as Rec, key);
  }
  return undefined;
}

function coerce(value: unknown, schema: JsonSchema): unknown {
  if (value === undefined || value === null) return undefined;
  const t = typeOf(schema);
  if (t === 'object')
    return typeof value === 'object' && !Array.isArray(value) && schema.properties
      ? fillObject([value as Rec], schema)
      : undefined;
  if (t === 'array')
    return Array.isArray(value)
      ? value.map((v) => coerce(v, schema.items ?? {})).filter((v) => v !== undefined)
      : undefined;
  const scalar =
    typeof value === 'object'
      ? (lookup(value as Rec, 'name') ?? lookup(value as Rec, 'value') ?? lookup(value as Rec, 'price'))
      : value;
  if (scalar === undefined || typeof scalar === 'object') return undefined;
  const text = cleanText(String(scalar));
  if (t === 'number' || t === 'integer') {
    const m = /-?\d[\d,]*(\.\d+)?/.exec(text);
    if (!m) return undefined;
    const n = Number(m[0].replace(/,/g, ''));
    return t === 'integer' ? Math.round(n) : n;
  }
  if (t === 'boolean')
    return /^(true|yes|1|checked|on|in stock)$/i.test(text)
      ? true
      : /^(false|no|0|off|out of stock)$/i.test(text)
        ? false
        : undefined;
  return text;
}

/** The record among `sources` that answers the most properties wins; gaps are filled from the others. */
function fillObject(sources: Rec[], schema: JsonSchema): Rec {
  const props = Object.entries(schema.properties ?? {});
  const score = (r: Rec): number => props.filter(([k, s]) => coerce(lookup(r, k), s) !== undefined).length;
  const ranked = [...sources].sort((a, b) => score(b) - score(a));
  const out: Rec = {};
  for (const [key, sub] of props) {
    for (const src of ranked) {
      const v = coerce(lookup(src, key), sub);
      if (v !== undefined) {
        out[key] = v;
        break;
      }
    }
  }
  return out;
}

function jsonLdRecords(dom: PageDom): Rec[] {
  const out: Rec[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      out.push(v as Rec);
      const graph = (v as Rec)['@graph'];
      if (graph) visit(graph);
    }
  };
  for (const raw of dom.jsonLd) {
    try {
      visit(JSON.parse(raw));
    } catch {
      // A broken JSON-LD block on the page is the site's bug; the other sources still count.
    }
  }
  return out;
}

function microdataItem(node: DomNode): Rec {
  const rec: Rec = node.a?.itemtype ? { '@type': node.a.itemtype } : {};
  const walk = (n: DomNode): void => {
    for (const c of elements(n)) {
      const prop = c.a?.itemprop;
      if (prop)
        rec[prop] =
          c.a?.itemscope !== undefined
            ? microdataItem(c)
            : (c.a?.content ?? c.a?.datetime ?? (c.t === 'a' ? c.a?.href : undefined) ?? cleanText(textOf(c)));
      if (c.a?.itemscope === undefined) walk(c);
    }
  };
  walk(node);
  return rec;
}

function tableRecords(table: DomNode): Rec[] {
  const rows = findAll(table, (n) => n.t === 'tr').map((r) => elements(r).filter((c) => c.t === 'td' || c.t === 'th'));
  const [head, ...body] = rows;
  if (!head) return [];
  const keys = head.map((c) => cleanText(textOf(c)));
  return body.map((cells) =>
    Object.fromEntries(cells.map((c, i) => [keys[i] ?? `column${i + 1}`, cleanText(textOf(c))])),
  );
}

/** Key/value pairs from labels, definition lists, two-cell rows and "Key: value" lines. */
export function labelledFields(root: DomNode, body: DomNode = root): Rec {
  const rec: Rec = {};
  const put = (k: string, v: string): void => {
    const key = cleanText(k).replace(/:$/, '');
    if (key && v && !(key in rec)) rec[key] = cleanText(v);
  };
  for (const n of descendants(root)) {
    if (['input', 'select', 'textarea'].includes(n.t)) put(labelFor(body, n) ?? n.a?.name ?? '', textOf(n));
    if (n.t === 'dl') {
      let term = '';
      for (const c of elements(n)) {
        if (c.t === 'dt') term = textOf(c);
        else if (c.t === 'dd') put(term, textOf(c));
      }
    }
    if (n.t === 'tr') {
      const cells = elements(n).filter((c) => c.t === 'td' || c.t === 'th');
      if (cells.length === 2 && cells[0] && cells[1]) put(textOf(cells[0]), textOf(cells[1]));
    }
    const own = (n.c ?? []).filter((c) => typeof c === 'string').join('');
    const m = /^\s*([^:]{1,40}):\s*(.+)$/.exec(cleanText(textOf(n)));
    if (
      m?.[1] &&
      m[2] &&
      elements(n).length <= 2 &&
      (own.includes(':') || elements(n).some((c) => textOf(c).includes(':')))
    )
      put(m[1], m[2]);
  }
  return rec;
}

function listRecords(list: DomNode): Rec[] {
  return elements(list)
    .filter((li) => li.t === 'li')
    .map((li) => ({
      text: cleanText(textOf(li)),
      name: cleanText(textOf(li)),
      ...labelledFields(li),
      ...itemChildren(li),
    }));
}

/** Elements inside a list item named by class-like hints (heading = name, links = url). */
function itemChildren(li: DomNode): Rec {
  const rec: Rec = {};
  const heading = findAll(li, (n) => /^h[1-6]$/.test(n.t) || n.t === 'strong')[0];
  if (heading) rec.name = rec.title = cleanText(textOf(heading));
  const link = findAll(li, (n) => n.t === 'a')[0];
  if (link?.a?.href) rec.url = rec.link = link.a.href;
  return rec;
}

/** Lists in document order with the heading above each: "tags" finds the list under "Tags". */
function listsWithHeadings(body: DomNode): { rows: Rec[]; heading: string }[] {
  const out: { rows: Rec[]; heading: string }[] = [];
  let heading = '';
  for (const n of descendants(body)) {
    if (/^h[1-6]$/.test(n.t)) heading = cleanText(textOf(n));
    else if (n.t === 'ul' || n.t === 'ol') out.push({ rows: listRecords(n), heading });
  }
  return out;
}

function fillArray(dom: PageDom, body: DomNode, schema: JsonSchema, hint: string): unknown[] {
  const item = schema.items ?? { type: 'string' };
  const keys = typeOf(item) === 'object' ? Object.entries(item.properties ?? {}) : [];
  const hinted = (heading: string): boolean => Boolean(hint) && norm(heading).includes(norm(hint));
  if (keys.length === 0) {
    // Scalars come from lists: the one under a matching heading, else the first.
    const lists = listsWithHeadings(body).filter((l) => l.rows.length > 0);
    const chosen = lists.find((l) => hinted(l.heading)) ?? lists[0];
    return (chosen?.rows ?? []).map((r) => coerce(r.text, item)).filter((v) => v !== undefined);
  }
  const candidates: Rec[][] = [];
  for (const t of findAll(body, (n) => n.t === 'table')) candidates.push(tableRecords(t));
  const micro = findAll(body, (n) => n.a?.itemscope !== undefined && n.a?.itemprop === undefined).map(microdataItem);
  if (micro.length) candidates.push(micro);
  for (const r of jsonLdRecords(dom)) {
    for (const v of Object.values(r))
      if (Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === 'object')) candidates.push(v as Rec[]);
  }
  for (const l of listsWithHeadings(body)) candidates.push(l.rows);
  const score = (rows: Rec[]): number => {
    const first = rows[0];
    return first ? keys.filter(([k, s]) => coerce(lookup(first, k), s) !== undefined).length : -1;
  };
  const best = candidates.map((rows, i) => ({ rows, s: score(rows), i })).sort((a, b) => b.s - a.s || a.i - b.i)[0];
  if (!best || best.s <= 0) return [];
  return best.rows.map((r) => fillObject([r], item));
}

export function extractWithSchema(dom: PageDom, schema: JsonSchema): unknown {
  const body = dom.body ?? { t: 'body' };
  if (typeOf(schema) === 'array') return fillArray(dom, body, schema, '');
  if (typeOf(schema) !== 'object')
    return coerce(labelledFields(body)[Object.keys(labelledFields(body))[0] ?? ''], schema);
  const sources: Rec[] = [
    ...jsonLdRecords(dom),
    ...findAll(body, (n) => n.a?.itemscope !== undefined && n.a?.itemprop === undefined).map(microdataItem),
    labelledFields(body),
    { ...Object.fromEntries(dom.meta.map(([k, v]) => [k.replace(/^og:/, ''), v])), title: dom.title },
  ];
  const out = fillObject(sources, {
    properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([, s]) => typeOf(s) !== 'array')),
  });
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    if (typeOf(sub) !== 'array') continue;
    const fromSources = sources.map((s) => coerce(lookup(s, key), sub)).find((v) => Array.isArray(v) && v.length > 0);
    out[key] = fromSources ?? fillArray(dom, body, sub, key);
  }
  return out;
}
