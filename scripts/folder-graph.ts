import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The import graph between the folders of lib/ (a root-level file is a node of its own,
 * `(lib)/deps`), from static imports and re-exports, type-only ones included. Printed by
 * `npx tsx scripts/folder-graph.ts`; test/unit/architecture.test.ts holds the rules.
 */
export type FolderGraph = Map<string, Set<string>>;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/g;

export function folderGraph(root: string): FolderGraph {
  const lib = join(root, 'lib');
  const node = (file: string): string => {
    const parts = relative(lib, file).split('/');
    return parts.length > 1 ? (parts[0] ?? '') : `(lib)/${(parts[0] ?? '').replace(/\.ts$/, '')}`;
  };
  const graph: FolderGraph = new Map();
  for (const file of sources(lib)) {
    const from = node(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts'));
      if (!target.startsWith(`${lib}/`)) continue;
      const to = node(target);
      if (to !== from) graph.get(from)?.add(to);
    }
  }
  return graph;
}

/** Groups of nodes that import each other, directly or round about (Tarjan's strongly connected components). */
export function cycles(graph: FolderGraph): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, idx.get(w) ?? 0));
    }
    if (low.get(v) !== idx.get(v)) return;
    const group: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = folderGraph(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  for (const [from, to] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    if (to.size) console.log(`${from} -> ${[...to].sort().join(', ')}`);
  }
  const loops = cycles(graph);
  console.log(`cycles: ${loops.length ? loops.map((c) => c.join(' ')).join(' | ') : 'none'}`);
}
