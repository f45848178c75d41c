import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditional, queryAll } from '../aws/dynamo.js';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRepository } from './api-key-repository.js';
import type { ApiKeyRecord } from './model.js';

/** The ApiKeyRepository on DynamoDB (`byBusiness` index for the dashboard list). */
export class DynamoApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(record: ApiKeyRecord): Promise<void> {
    await this.ddb.send(
      new PutCommand({ TableName: this.table, Item: record, ConditionExpression: 'attribute_not_exists(keyHash)' }),
    );
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    // Strongly consistent: a revocation must be honoured on the very next request.
    const out = await this.ddb.send(new GetCommand({ TableName: this.table, Key: { keyHash }, ConsistentRead: true }));
    return out.Item as ApiKeyRecord | undefined;
  }

  async listByBusiness(businessId: string): Promise<ApiKeyRecord[]> {
    return queryAll<ApiKeyRecord>(this.ddb, {
      TableName: this.table,
      IndexName: 'byBusiness',
      KeyConditionExpression: 'businessId = :b',
      ExpressionAttributeValues: { ':b': businessId },
    });
  }

  async revoke(businessId: string, keyId: string, now: Date): Promise<boolean> {
    const key = (await this.listByBusiness(businessId)).find((k) => k.keyId === keyId);
    if (!key) return false;
    // Already revoked: the first revocation time stands.
    await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { keyHash: key.keyHash },
          UpdateExpression: 'SET revokedAt = :now',
          ConditionExpression: 'attribute_not_exists(revokedAt)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
        }),
      ),
    );
    return true;
  }

  async touchLastUsed(keyHash: string, now: Date, staleBefore: Date): Promise<void> {
    // A lost condition means another request already refreshed it: exactly what we wanted.
    await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { keyHash },
          UpdateExpression: 'SET lastUsedAt = :now',
          ConditionExpression: 'attribute_exists(keyHash) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :stale)',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':stale': staleBefore.toISOString() },
        }),
      ),
    );
  }
}
