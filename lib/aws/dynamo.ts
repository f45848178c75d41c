import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** True when a conditional write lost (the expected, non-exceptional outcome of a race). */
export function isConditionFailure(err: unknown): boolean {
  return (
    err instanceof ConditionalCheckFailedException ||
    (err instanceof Error && err.name === 'ConditionalCheckFailedException')
  );
}

/** Builds `SET a = :a, b = :b` plus its name/value maps from a plain object. */
export function setExpression(fields: Record<string, unknown>, prefix = 'f'): {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts: string[] = [];
  Object.entries(fields).forEach(([k, v], i) => {
    if (v === undefined) return;
    names[`#${prefix}${i}`] = k;
    values[`:${prefix}${i}`] = v;
    parts.push(`#${prefix}${i} = :${prefix}${i}`);
  });
  return { expression: parts.join(', '), names, values };
}
