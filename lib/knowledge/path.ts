/**
 * The field-path language of recipes: a linear walk into a JSON value, nothing more.
 *
 *   path  := step+ ['?']          step := key | '[' int ']' | '[]'
 *   key   := chars other than . [ ] ?   (separated from the previous step by '.')
 *
 * `a.b` reads a key, `[2]` an array element (`[-1]` counts from the end), `[]` maps the
 * rest of the path over every element of a list (at most one `[]` per path, so the
 * result is flat and the walk stays linear in the response size). A final `?` makes a
 * missing value `null` instead of an error. No filters, wildcards or expressions: a
 * recipe that needs more should return the enclosing object.
 */
export type PathStep = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'each' };

export interface ParsedPath {
  source: string;
  steps: PathStep[];
  optional: boolean;
  hasEach: boolean;
}

/** Parses a path, or returns the reason it is malformed as a sentence fragment. */
export function parsePath(source: string): ParsedPath | string {
  const optional = source.endsWith('?');
  const body = optional ? source.slice(0, -1) : source;
  if (body.length === 0) return 'is empty';
  const steps: PathStep[] = [];
  let i = 0;
  while (i < body.length) {
    const ch = body[i];
    if (ch === '[') {
      const close = body.indexOf(']', i);
      if (close < 0) return `has an unclosed "[" at position ${i}`;
      const inner = body.slice(i + 1, close);
      if (inner === '') steps.push({ kind: 'each' });
      else if (/^-?\d{1,6}$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else return `has "[${inner}]"; only [n], [-n] and [] are allowed`;
      i = close + 1;
      continue;
    }
    if (ch === '.') {
      if (steps.length === 0 || i === body.length - 1) return 'starts or ends with "."';
      i += 1;
    } else if (steps.length > 0) {
      return `needs "." before the key at position ${i}`;
    }
    let end = i;
    while (end < body.length && !'.[]?'.includes(body[end] ?? '')) end += 1;
    if (end === i) return `has an empty key at position ${i}`;
    if (body[end] === ']' || body[end] === '?') return `has a stray "${body[end]}" at position ${end}`;
    steps.push({ kind: 'key', key: body.slice(i, end) });
    i = end;
  }
  const eachCount = steps.filter((s) => s.kind === 'each').length;
  if (eachCount > 1) return 'has more than one "[]"';
  return { source, steps, optional, hasEach: eachCount === 1 };
}

/** Renders steps back to path text, for error messages that point at the exact spot. */
function render(steps: readonly (PathStep | { kind: 'at'; index: number })[]): string {
  let out = '';
  for (const s of steps) {
    if (s.kind === 'key') out += out === '' ? s.key : `.${s.key}`;
    else if (s.kind === 'each') out += '[]';
    else out += `[${s.index}]`;
  }
  return out || '(the whole response)';
}

export class PathMissError extends Error {
  constructor(readonly at: string) {
    super(`missing at ${at}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One step; undefined means "not there". */
function step(value: unknown, s: Exclude<PathStep, { kind: 'each' }>): unknown {
  if (s.kind === 'key') return isRecord(value) && Object.hasOwn(value, s.key) ? value[s.key] : undefined;
  if (!Array.isArray(value)) return undefined;
  const i = s.index < 0 ? value.length + s.index : s.index;
  return i >= 0 && i < value.length ? value[i] : undefined;
}

/**
 * Reads `path` from `root`. A `[]` list is cut to `limit` elements before the rest of the
 * path is applied, so a 10,000-item response costs no more than `limit` items. Throws
 * PathMissError naming the first step that was not found (unless the path is optional).
 */
export function readPath(root: unknown, path: ParsedPath, limit: number): unknown {
  const walk = (value: unknown, from: number, trail: (PathStep | { kind: 'at'; index: number })[]): unknown => {
    let current = value;
    for (let i = from; i < path.steps.length; i++) {
      const s = path.steps[i];
      if (!s) break;
      if (s.kind === 'each') {
        if (!Array.isArray(current)) return miss([...trail, ...path.steps.slice(from, i + 1)]);
        const prefix = [...trail, ...path.steps.slice(from, i)];
        return current.slice(0, limit).map((el, n) => walk(el, i + 1, [...prefix, { kind: 'at', index: n }]));
      }
      const next = step(current, s);
      if (next === undefined) return miss([...trail, ...path.steps.slice(from, i + 1)]);
      current = next;
    }
    return current;
  };
  const miss = (at: (PathStep | { kind: 'at'; index: number })[]): null => {
    if (path.optional) return null;
    throw new PathMissError(render(at));
  };
  return walk(root, 0, []);
}
