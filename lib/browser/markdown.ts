import {
  cleanText,
  elements,
  isBoilerplate,
  isNode,
  mainContent,
  textOf,
  type DomChild,
  type DomNode,
  type PageDom,
} from './dom.js';

/**
 * The page's readable main content as Markdown: headings, paragraphs, lists, links,
 * images, code, quotes and tables. Navigation, page chrome and form controls are left
 * out: a model reading the page wants its content, and acts on controls via snapshot refs.
 */
const SKIPPED = new Set(['button', 'input', 'select', 'textarea', 'option', 'label', 'form', 'dialog']);
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'ul',
  'ol',
  'pre',
  'blockquote',
  'table',
  'hr',
  'figure',
  'dl',
  'details',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

const escapeInline = (s: string): string => s.replace(/([\\`*_[\]])/g, '\\$1');

function inline(child: DomChild): string {
  if (!isNode(child)) return escapeInline(child);
  const n = child;
  if (SKIPPED.has(n.t) || isBoilerplate(n)) return '';
  const inner = (): string => (n.c ?? []).map(inline).join('');
  switch (n.t) {
    case 'a': {
      const text = cleanText(inner());
      const href = n.a?.href;
      return href && text && !href.startsWith('javascript:') ? `[${text}](${href})` : text;
    }
    case 'img':
      return n.a?.src ? `![${escapeInline(n.a.alt ?? '')}](${n.a.src})` : '';
    case 'strong':
    case 'b': {
      const t = cleanText(inner());
      return t ? `**${t}**` : '';
    }
    case 'em':
    case 'i': {
      const t = cleanText(inner());
      return t ? `_${t}_` : '';
    }
    case 'code':
      return `\`${textOf(n)}\``;
    case 'br':
      return '\n';
    default:
      return inner();
  }
}

function list(n: DomNode, depth: number): string {
  const ordered = n.t === 'ol';
  const lines: string[] = [];
  elements(n)
    .filter((li) => li.t === 'li')
    .forEach((li, i) => {
      const own = cleanText(
        (li.c ?? [])
          .filter((c) => !isNode(c) || (c.t !== 'ul' && c.t !== 'ol'))
          .map(inline)
          .join(''),
      );
      lines.push(`${'  '.repeat(depth)}${ordered ? `${i + 1}.` : '-'} ${own}`);
      for (const sub of elements(li).filter((c) => c.t === 'ul' || c.t === 'ol')) lines.push(list(sub, depth + 1));
    });
  return lines.join('\n');
}

function table(n: DomNode): string {
  const rows = [...descendRows(n)].map((r) =>
    elements(r)
      .filter((c) => c.t === 'td' || c.t === 'th')
      .map((c) => cleanText(inline(c)).replace(/\|/g, '\\|')),
  );
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.length));
  const pad = (r: string[]): string[] => [...r, ...Array<string>(width - r.length).fill('')];
  const [head, ...body] = rows.map(pad);
  const line = (r: string[]): string => `| ${r.join(' | ')} |`;
  return [line(head ?? []), line(Array<string>(width).fill('---')), ...body.map(line)].join('\n');
}

function* descendRows(n: DomNode): Generator<DomNode> {
  for (const c of elements(n)) {
    if (c.t === 'tr') yield c;
    else if (c.t === 'thead' || c.t === 'tbody' || c.t === 'tfoot') yield* descendRows(c);
  }
}

function blocks(n: DomNode, out: string[]): void {
  let buffer = '';
  const flush = (): void => {
    const text = buffer
      .replace(/[ \t]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .trim();
    if (text) out.push(text);
    buffer = '';
  };
  for (const child of n.c ?? []) {
    if (!isNode(child) || !BLOCKS.has(child.t)) {
      buffer += inline(child);
      continue;
    }
    flush();
    const c = child;
    if (SKIPPED.has(c.t) || isBoilerplate(c)) continue;
    const level = HEADINGS[c.t];
    if (level) {
      const t = cleanText(inline(c));
      if (t) out.push(`${'#'.repeat(level)} ${t}`);
    } else if (c.t === 'ul' || c.t === 'ol') out.push(list(c, 0));
    else if (c.t === 'pre') out.push(`\`\`\`\n${textOf(c).replace(/\n$/, '')}\n\`\`\``);
    else if (c.t === 'blockquote') {
      const inner: string[] = [];
      blocks(c, inner);
      out.push(
        inner
          .join('\n\n')
          .split('\n')
          .map((l) => `> ${l}`)
          .join('\n'),
      );
    } else if (c.t === 'table') out.push(table(c));
    else if (c.t === 'hr') out.push('---');
    else blocks(c, out);
  }
  flush();
}

export function domToMarkdown(root: DomNode): string {
  const out: string[] = [];
  blocks(root, out);
  return out.filter(Boolean).join('\n\n');
}

export function pageToMarkdown(dom: PageDom): string {
  if (!dom.body) return dom.title ? `# ${dom.title}` : '';
  const md = domToMarkdown(mainContent(dom.body));
  // Pages whose main content has no h1 still get their title as a heading, so the reader knows where it is.
  return md.startsWith('# ') || !dom.title ? md : `# ${dom.title}\n\n${md}`;
}
