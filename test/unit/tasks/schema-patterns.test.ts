import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../lib/agent/structured.js';
import { CreateTaskBody } from '../../../lib/tasks/schemas.js';

const body = (schema: Record<string, unknown>) => ({ endUserId: 'u', task: 't', schema });

describe('caller schemas: regular expressions', () => {
  it.each([
    ['a backreference in pattern', { type: 'string', pattern: '^(a)\\1$' }, /invalid escape sequence/],
    [
      'a lookahead in a nested pattern',
      { type: 'object', properties: { x: { type: 'string', pattern: '(?=a)b' } } },
      /properties\/x\/pattern.*Perl syntax/,
    ],
    [
      'a lookbehind as a patternProperties key',
      { type: 'object', patternProperties: { '(?<=x)y': { type: 'string' } } },
      /patternProperties/,
    ],
  ])('refuses %s at submit with a 400 message', (_label, schema, message) => {
    const r = CreateTaskBody.safeParse(body(schema));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(message);
    expect(r.error?.issues[0]?.message).toMatch(/linear-time engine without backreferences or lookaround/);
  });

  it('accepts what RE2 runs, including patterns that backtrack catastrophically elsewhere, and "pattern" as data', () => {
    expect(CreateTaskBody.safeParse(body({ type: 'string', pattern: '^(a+)+$' })).success).toBe(true);
    expect(
      CreateTaskBody.safeParse(
        body({ type: 'object', properties: { pattern: { type: 'string' } }, default: { pattern: '(a)\\1' } }),
      ).success,
    ).toBe(true);
  });

  it('validates a hostile pattern in linear time (the native engine needs seconds for this input)', () => {
    // Prepare: `^(a+)+$` against 30 a's and a mismatch, the classic exponential case.
    const validate = compileSchema({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } });
    validate({ code: 'warm-up' });
    // Act
    const started = performance.now();
    const result = validate({ code: `${'a'.repeat(30)}!` });
    const elapsed = performance.now() - started;
    // Assess
    expect(result.ok).toBe(false);
    expect(elapsed).toBeLessThan(100);
    // The engine still matches what it should.
    expect(validate({ code: 'aaaa' }).ok).toBe(true);
  });

  it('keeps JavaScript pattern syntax: classes, Unicode properties, the i flag of ajv', () => {
    const validate = compileSchema({ type: 'string', pattern: '^\\d{3}-\\p{L}+$' });
    expect(validate('123-été').ok).toBe(true);
    expect(validate('12-abc').ok).toBe(false);
  });
});
