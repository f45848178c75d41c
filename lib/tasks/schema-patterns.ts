import { RE2JS } from 're2js';

/**
 * A caller's JSON Schema carries regular expressions (`pattern`, the keys of
 * `patternProperties`). Run by a backtracking engine, `^(a+)+$` against 30 characters
 * takes seconds and blocks the worker's event loop past its own budget timer. So they run
 * on RE2 (re2js, pure JavaScript): matching is linear in the input, whatever the pattern.
 * RE2 has no backreferences or lookaround; a schema that needs them is refused at submit
 * (a 400) instead of failing later in the worker.
 */
export interface RegExpLike {
  test(input: string): boolean;
  toString(): string;
}

/** Compiles a JavaScript-syntax pattern on RE2; throws on syntax RE2 cannot run. */
function compileLinear(pattern: string, flags = ''): RegExpLike {
  const re = RE2JS.compile(RE2JS.translateRegExp(pattern), flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  // ajv caches compiled patterns by toString(): each must read as its own source.
  return { test: (input) => re.test(input), toString: () => `/${pattern}/${flags}` };
}

/**
 * The engine in the shape ajv's `code.regExp` option takes; `code` names it in
 * standalone generated code, which this service does not use.
 */
export const linearRegExp = Object.assign(compileLinear, { code: 'linearRegExp' });

/** Subtrees that hold data, not schema: a "pattern" inside them is just a value. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/** Every regular expression a schema asks a validator to run, with where it sits. */
function* patternsOf(node: unknown, path: string): Generator<{ at: string; pattern: string }> {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) yield* patternsOf(child, `${path}/${i}`);
    return;
  }
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (key === 'pattern' && typeof value === 'string') yield { at: `${path}/pattern`, pattern: value };
    if (key === 'patternProperties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const p of Object.keys(value)) yield { at: `${path}/patternProperties`, pattern: p };
    }
    yield* patternsOf(value, `${path}/${key}`);
  }
}

/** The first pattern of `schema` RE2 cannot run, as a sentence for a 400; undefined when all can. */
export function unsupportedPattern(schema: unknown): string | undefined {
  for (const { at, pattern } of patternsOf(schema, '')) {
    try {
      linearRegExp(pattern, 'u');
    } catch (err) {
      const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
      return `schema pattern at ${at || '/'} cannot be used: ${why}. Patterns run on a linear-time engine without backreferences or lookaround`;
    }
  }
  return undefined;
}
