import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conditional, queryAll, setExpression } from '../aws/dynamo.js';
import type { TaskItem, TaskStatus } from './model.js';
import type { RunningState, TaskProgress, TaskRepository } from './task-repository.js';

/** The TaskRepository on DynamoDB (the `bySession` and `byStatus` indexes of resources.ts). */
export class DynamoTaskRepository implements TaskRepository {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(item: TaskItem): Promise<void> {
    await this.ddb.send(
      new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(taskId)' }),
    );
  }

  async get(taskId: string): Promise<TaskItem | undefined> {
    const out = await this.ddb.send(new GetCommand({ TableName: this.table, Key: { taskId }, ConsistentRead: true }));
    return out.Item as TaskItem | undefined;
  }

  async delete(taskId: string): Promise<void> {
    await this.ddb.send(new DeleteCommand({ TableName: this.table, Key: { taskId } }));
  }

  async batchGet(taskIds: string[]): Promise<TaskItem[]> {
    const unique = [...new Set(taskIds)];
    const found: TaskItem[] = [];
    for (let i = 0; i < unique.length; i += 100) {
      let keys: Record<string, unknown>[] | undefined = unique.slice(i, i + 100).map((taskId) => ({ taskId }));
      // BatchGet may return UnprocessedKeys under throttling: retry them with a short backoff.
      for (let attempt = 0; keys?.length && attempt < 5; attempt++) {
        if (attempt) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
        const out = await this.ddb.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys } } }));
        found.push(...((out.Responses?.[this.table] ?? []) as TaskItem[]));
        keys = out.UnprocessedKeys?.[this.table]?.Keys as Record<string, unknown>[] | undefined;
      }
    }
    return found;
  }

  async listBySession(sessionId: string): Promise<TaskItem[]> {
    return queryAll<TaskItem>(this.ddb, {
      TableName: this.table,
      IndexName: 'bySession',
      KeyConditionExpression: 'sessionId = :s',
      ExpressionAttributeValues: { ':s': sessionId },
    });
  }

  async claim(taskId: string, now: Date, leaseMs: number): Promise<TaskItem | undefined> {
    const out = await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { taskId },
          UpdateExpression:
            'SET #s = :running, updatedAt = :now, leaseExpiresAt = :lease, startedAt = if_not_exists(startedAt, :now) ADD attempts :one REMOVE retryAt, retryError',
          ConditionExpression:
            'attribute_exists(taskId) AND (#s = :pending OR (#s = :running AND leaseExpiresAt < :now))',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':running': 'running',
            ':pending': 'pending',
            ':now': now.toISOString(),
            ':lease': new Date(now.getTime() + leaseMs).toISOString(),
            ':one': 1,
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out?.Attributes as TaskItem | undefined;
  }

  async updateRunning(taskId: string, progress: TaskProgress, now: Date): Promise<RunningState> {
    const fields = { ...progress, updatedAt: now.toISOString() };
    // The common case is one write; a failed condition costs a second one, only when a
    // cancel was requested or the task ended, which tells those two apart.
    if (
      await this.conditionalSet(taskId, fields, '#st = :cond AND attribute_not_exists(cancelRequested)', {
        ':cond': 'running',
      })
    ) {
      return 'running';
    }
    return (await this.conditionalSet(taskId, fields, '#st = :cond', { ':cond': 'running' }))
      ? 'cancel-requested'
      : 'gone';
  }

  async finish(
    taskId: string,
    status: Exclude<TaskStatus, 'pending' | 'running'>,
    progress: TaskProgress,
    now: Date,
  ): Promise<boolean> {
    return this.conditionalSet(
      taskId,
      { ...progress, status, updatedAt: now.toISOString() },
      '#st = :cond',
      { ':cond': 'running' },
      ['leaseExpiresAt'],
    );
  }

  async failUnlessTerminal(
    taskId: string,
    error: string,
    now: Date,
    onlyIf?: { status: TaskStatus; updatedBefore?: string },
  ): Promise<boolean> {
    let condition = '(#st = :p OR #st = :r)';
    const values: Record<string, unknown> = { ':p': 'pending', ':r': 'running' };
    if (onlyIf) {
      condition = '#st = :only';
      values[':only'] = onlyIf.status;
      delete values[':p'];
      delete values[':r'];
      if (onlyIf.updatedBefore) {
        condition += ' AND updatedAt < :before';
        values[':before'] = onlyIf.updatedBefore;
      }
    }
    return this.conditionalSet(taskId, { status: 'failed', error, updatedAt: now.toISOString() }, condition, values, [
      'leaseExpiresAt',
    ]);
  }

  async requestCancel(taskId: string, now: Date): Promise<'cancelled' | 'flagged' | 'terminal'> {
    const at = now.toISOString();
    if (
      await this.conditionalSet(taskId, { status: 'cancelled', updatedAt: at }, '#st = :cond', { ':cond': 'pending' })
    ) {
      return 'cancelled';
    }
    if (await this.conditionalSet(taskId, { cancelRequested: true }, '#st = :cond', { ':cond': 'running' })) {
      return 'flagged';
    }
    return 'terminal';
  }

  async listByStatus(status: TaskStatus, updatedBefore: string, limit: number): Promise<TaskItem[]> {
    const out = await this.ddb.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'byStatus',
        KeyConditionExpression: '#s = :s AND updatedAt < :before',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': status, ':before': updatedBefore },
        Limit: limit,
      }),
    );
    return (out.Items ?? []) as TaskItem[];
  }

  private async conditionalSet(
    taskId: string,
    fields: Record<string, unknown>,
    condition: string,
    conditionValues: Record<string, unknown>,
    remove: string[] = [],
  ): Promise<boolean> {
    const set = setExpression(fields);
    const removeNames = Object.fromEntries(remove.map((r, i) => [`#rm${i}`, r]));
    const update = `SET ${set.expression}${remove.length ? ` REMOVE ${Object.keys(removeNames).join(', ')}` : ''}`;
    const out = await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { taskId },
          UpdateExpression: update,
          ConditionExpression: `attribute_exists(taskId) AND ${condition}`,
          ExpressionAttributeNames: { ...set.names, ...removeNames, '#st': 'status' },
          ExpressionAttributeValues: { ...set.values, ...conditionValues },
        }),
      ),
    );
    return out !== undefined;
  }
}
