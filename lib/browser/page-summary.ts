import {
  cleanText,
  descendants,
  findAll,
  isBoilerplate,
  mainContent,
  textOf,
  type DomNode,
  type PageDom,
} from './dom.js';

/** A quick orientation on a page: what it is, how it is structured, where it links, what it asks for. */
export interface PageSummary {
  url: string;
  title: string;
  description?: string;
  headings: { level: number; text: string }[];
  links: { text: string; href: string }[];
  forms: {
    action?: string;
    method: string;
    fields: { name?: string; type: string; label?: string }[];
    submit: string[];
  }[];
}

const MAX_LINKS = 40;
const MAX_HEADINGS = 40;

export function labelFor(body: DomNode, field: DomNode): string | undefined {
  const id = field.a?.id;
  const byFor = id ? findAll(body, (n) => n.t === 'label' && n.a?.for === id)[0] : undefined;
  const byWrap = findAll(body, (n) => n.t === 'label' && [...descendants(n)].includes(field))[0];
  const label = byFor ?? byWrap;
  const text = label ? cleanText(textOf({ ...label, c: (label.c ?? []).filter((c) => c !== field) })) : undefined;
  return text || field.a?.['aria-label'] || field.a?.placeholder || undefined;
}

function linksOutside(node: DomNode, out: DomNode[]): void {
  if (isBoilerplate(node)) return;
  if (node.t === 'a') out.push(node);
  for (const c of node.c ?? []) if (typeof c !== 'string') linksOutside(c, out);
}

export function summarizePage(dom: PageDom): PageSummary {
  const meta = new Map(dom.meta);
  const description = meta.get('description') ?? meta.get('og:description');
  const body = dom.body ?? { t: 'body' };
  const headings = findAll(body, (n) => /^h[1-6]$/.test(n.t))
    .map((n) => ({ level: Number(n.t.slice(1)), text: cleanText(textOf(n)) }))
    .filter((h) => h.text)
    .slice(0, MAX_HEADINGS);
  const anchors: DomNode[] = [];
  linksOutside(mainContent(body), anchors);
  const seen = new Set<string>();
  const links: PageSummary['links'] = [];
  for (const a of anchors) {
    const href = a.a?.href;
    const text = cleanText(textOf(a)) || a.a?.['aria-label'] || '';
    if (!href || !text || seen.has(href) || href.startsWith('javascript:')) continue;
    seen.add(href);
    links.push({ text, href });
    if (links.length >= MAX_LINKS) break;
  }
  const forms = findAll(body, (n) => n.t === 'form').map((f) => ({
    ...(f.a?.action ? { action: f.a.action } : {}),
    method: (f.a?.method ?? 'get').toLowerCase(),
    fields: findAll(
      f,
      (n) => ['input', 'select', 'textarea'].includes(n.t) && !['submit', 'button', 'hidden'].includes(n.a?.type ?? ''),
    ).map((n) => {
      const label = labelFor(body, n);
      return {
        ...(n.a?.name ? { name: n.a.name } : {}),
        type: n.t === 'input' ? (n.a?.type ?? 'text') : n.t,
        ...(label ? { label } : {}),
      };
    }),
    submit: findAll(f, (n) => n.t === 'button' || (n.t === 'input' && n.a?.type === 'submit'))
      .map((n) => cleanText(textOf(n)) || n.a?.value || '')
      .filter(Boolean),
  }));
  return { url: dom.url, title: dom.title, ...(description ? { description } : {}), headings, links, forms };
}
