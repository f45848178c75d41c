import type { Page } from 'playwright-core';
import type { RefTarget } from './session.js';

/**
 * Accessibility snapshots with refs (Playwright's `ai` mode), parsed into a tree so they
 * can be filtered: a model that only needs the buttons or the "checkout" area should not
 * pay for the whole page.
 */
export const SNAPSHOT_MAX_CHARS = 40_000;
export const TRUNCATION_MARKER = 'truncated, narrow with contains/roles';

export interface SnapshotNode {
  line: string;
  depth: number;
  role: string;
  name: string;
  ref?: string;
  /** Property lines such as `/url:` belong to their element, not to the tree. */
  isProperty: boolean;
  children: SnapshotNode[];
  parent?: SnapshotNode;
}

const NAME_RE = /^"((?:[^"\\]|\\.)*)"/;

export function parseSnapshot(yaml: string): SnapshotNode[] {
  const roots: SnapshotNode[] = [];
  const stack: SnapshotNode[] = [];
  for (const raw of yaml.split('\n')) {
    const match = /^(\s*)- (.*)$/.exec(raw);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 2;
    const body = match[2] ?? '';
    const role = /^[^\s:"[]+/.exec(body)?.[0] ?? '';
    const rest = body.slice(role.length).trimStart();
    const name = NAME_RE.exec(rest)?.[1]?.replace(/\\(.)/g, '$1') ?? '';
    const node: SnapshotNode = { line: raw, depth, role, name, isProperty: role.startsWith('/'), children: [] };
    const ref = /\[ref=([a-z0-9]+)\]/.exec(body)?.[1];
    if (ref) node.ref = ref;
    while (stack.length > 0 && (stack.at(-1)?.depth ?? 0) >= depth) stack.pop();
    const parent = stack.at(-1);
    if (parent) {
      node.parent = parent;
      parent.children.push(node);
    } else {
      roots.push(node);
    }
    stack.push(node);
  }
  return roots;
}

function* walk(nodes: SnapshotNode[]): Generator<SnapshotNode> {
  for (const n of nodes) {
    yield n;
    yield* walk(n.children);
  }
}

export function collectRefs(roots: SnapshotNode[]): Map<string, RefTarget> {
  const refs = new Map<string, RefTarget>();
  for (const n of walk(roots)) if (n.ref) refs.set(n.ref, { role: n.role, name: n.name });
  return refs;
}

export interface SnapshotFilter {
  contains?: string;
  roles?: string[];
}

/**
 * `contains` keeps matching nodes with their ancestors (so the place on the page is
 * visible); `roles` keeps only nodes of those roles, listed flat, since their ancestors
 * are by definition other roles.
 */
export function filterSnapshot(roots: SnapshotNode[], filter: SnapshotFilter): string {
  const needle = filter.contains?.toLowerCase();
  const roles = filter.roles?.length ? new Set(filter.roles.map((r) => r.toLowerCase())) : undefined;
  const matches = (n: SnapshotNode): boolean =>
    !n.isProperty && (!needle || n.line.toLowerCase().includes(needle)) && (!roles || roles.has(n.role.toLowerCase()));
  const kept = new Set<SnapshotNode>();
  for (const n of walk(roots)) {
    if (!matches(n)) continue;
    kept.add(n);
    for (const c of n.children) if (c.isProperty) kept.add(c);
    if (!roles) for (let p = n.parent; p; p = p.parent) kept.add(p);
  }
  const lines: string[] = [];
  for (const n of walk(roots)) {
    if (!kept.has(n)) continue;
    if (!roles) {
      lines.push(n.line);
      continue;
    }
    // Flattened: properties sit one level under their element.
    const depth = n.isProperty ? 1 : 0;
    lines.push(`${'  '.repeat(depth)}${n.line.trimStart()}`);
  }
  return lines.join('\n');
}

export function capSnapshot(text: string, maxChars = SNAPSHOT_MAX_CHARS): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const cut = text.lastIndexOf('\n', maxChars);
  const head = text.slice(0, cut > 0 ? cut : maxChars);
  return {
    text: `${head}\n[${TRUNCATION_MARKER}: showed ${head.length} of ${text.length} characters]`,
    truncated: true,
  };
}

export interface PageSnapshot {
  text: string;
  refs: Map<string, RefTarget>;
  truncated: boolean;
  fullLength: number;
  roots: SnapshotNode[];
}

export async function takeSnapshot(
  page: Page,
  filter: SnapshotFilter = {},
  maxChars = SNAPSHOT_MAX_CHARS,
): Promise<PageSnapshot> {
  const yaml = await page.ariaSnapshot({ mode: 'ai' });
  const roots = parseSnapshot(yaml);
  const filtered = filter.contains || filter.roles?.length ? filterSnapshot(roots, filter) : yaml;
  const capped = capSnapshot(filtered, maxChars);
  // Refs of the whole page are remembered, not only the shown ones: any of them may be recovered later.
  return { text: capped.text, refs: collectRefs(roots), truncated: capped.truncated, fullLength: yaml.length, roots };
}
