import { GetCommand, PutCommand, QueryCommand, UpdateCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conditional } from '../aws/dynamo.js';
import type { SessionItem } from './model.js';
import type { SessionRepository } from './session-repository.js';

/** The SessionRepository on DynamoDB (`byBusiness` index for the newest-first list). */
export class DynamoSessionRepository implements SessionRepository {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(sessionId: string): Promise<SessionItem | undefined> {
    const out = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { sessionId }, ConsistentRead: true }),
    );
    return out.Item as SessionItem | undefined;
  }

  async create(item: SessionItem): Promise<void> {
    await this.ddb.send(
      new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(sessionId)' }),
    );
  }

  async appendTurn(sessionId: string, businessId: string, taskId: string, createdAt: string): Promise<boolean> {
    const out = await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { sessionId },
          UpdateExpression: 'SET latestTaskId = :t, latestCreatedAt = :c ADD turnCount :one',
          ConditionExpression: 'businessId = :b AND #k = :agent',
          ExpressionAttributeNames: { '#k': 'kind' },
          ExpressionAttributeValues: { ':t': taskId, ':c': createdAt, ':one': 1, ':b': businessId, ':agent': 'agent' },
        }),
      ),
    );
    return out !== undefined;
  }

  async delete(sessionId: string): Promise<void> {
    await this.ddb.send(new DeleteCommand({ TableName: this.table, Key: { sessionId } }));
  }

  async listByBusiness(businessId: string, limit: number): Promise<SessionItem[]> {
    const out = await this.ddb.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'byBusiness',
        KeyConditionExpression: 'businessId = :b',
        ExpressionAttributeValues: { ':b': businessId },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (out.Items ?? []) as SessionItem[];
  }
}
