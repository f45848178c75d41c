import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph } from '../../scripts/folder-graph.js';

/** The shape of lib/ (docs/architecture.md): who may import whom. */
const graph = folderGraph(resolve(import.meta.dirname, '..', '..'));
const importsOf = (folder: string): string[] => [...(graph.get(folder) ?? [])];

describe('folder graph of lib/', () => {
  it('has no cycle between folders', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps the generic worker free of the jobs it runs', () => {
    expect(importsOf('worker')).not.toContain('agent');
    expect(importsOf('worker')).not.toContain('design');
  });

  it('keeps the browser layer (and its network guard) on the kernel and the knowledge graph only', () => {
    expect(importsOf('browser').filter((f) => !f.startsWith('(lib)/') && f !== 'knowledge')).toEqual([]);
  });

  it('keeps the knowledge graph, which the browser tools read, on the kernel only', () => {
    expect(importsOf('knowledge').filter((f) => !f.startsWith('(lib)/'))).toEqual([]);
  });

  it.each(['tasks', 'quota', 'keys', 'credentials', 'auth'])(
    'keeps the %s capability off browsers, jobs and transports',
    (capability) => {
      for (const outer of ['browser', 'agent', 'design', 'worker', 'mcp', 'local', 'http'])
        expect(importsOf(capability)).not.toContain(outer);
    },
  );
});
