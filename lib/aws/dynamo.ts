import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/** Every item a query matches, following LastEvaluatedKey across pages. */
export async function queryAll<T>(
  ddb: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** True when a conditional write lost (the expected, non-exceptional outcome of a race). */
function isConditionFailure(err: unknown): boolean {
  return (
    err instanceof ConditionalCheckFailedException ||
    (err instanceof Error && err.name === 'ConditionalCheckFailedException')
  );
}

/**
 * Awaits a conditional write: its output, or undefined when the condition did not hold.
 * Every other error propagates.
 */
export async function conditional<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

/** Builds `SET a = :a, b = :b` plus its name/value maps from a plain object. */
export function setExpression(
  fields: Record<string, unknown>,
  prefix = 'f',
): {
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
