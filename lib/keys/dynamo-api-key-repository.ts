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
    // The pointer first: a key never exists without the strongly consistent way to revoke it.
    // It has no createdAt, so the byBusiness index (businessId, createdAt) never lists it.
    await this.ddb.send(
      new PutCommand({
        TableName: this.table,
        Item: { keyHash: pointerHash(record.keyId), keyRef: record.keyHash, businessId: record.businessId },
        ConditionExpression: 'attribute_not_exists(keyHash)',
      }),
    );
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
    const items = await queryAll<ApiKeyRecord>(this.ddb, {
      TableName: this.table,
      IndexName: 'byBusiness',
      KeyConditionExpression: 'businessId = :b',
      ExpressionAttributeValues: { ':b': businessId },
    });
    // Pointers carry no createdAt and so stay out of the index; the filter only makes that explicit.
    return items.filter((k) => !k.keyHash.startsWith(POINTER_PREFIX));
  }

  async revoke(businessId: string, keyId: string, now: Date): Promise<boolean> {
    const keyHash = await this.hashOf(businessId, keyId);
    if (!keyHash) return false;
    // Already revoked: the first revocation time stands.
    await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { keyHash },
          UpdateExpression: 'SET revokedAt = :now',
          ConditionExpression: 'attribute_exists(keyHash) AND businessId = :b AND attribute_not_exists(revokedAt)',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':b': businessId },
        }),
      ),
    );
    return true;
  }

  /** The key's hash through its pointer (consistent read); keys minted before pointers existed fall back to the index. */
  private async hashOf(businessId: string, keyId: string): Promise<string | undefined> {
    const out = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { keyHash: pointerHash(keyId) }, ConsistentRead: true }),
    );
    const pointer = out.Item as { keyRef?: string; businessId?: string } | undefined;
    if (pointer?.keyRef) return pointer.businessId === businessId ? pointer.keyRef : undefined;
    return (await this.listByBusiness(businessId)).find((k) => k.keyId === keyId)?.keyHash;
  }
}

/** Never a SHA-256 hex digest, so no bearer token can ever look a pointer up. */
const POINTER_PREFIX = 'id#';
const pointerHash = (keyId: string): string => `${POINTER_PREFIX}${keyId}`;
