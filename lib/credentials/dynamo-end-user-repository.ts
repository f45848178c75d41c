import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CREDENTIAL_FIELDS, type CredentialField } from './model.js';
import type { EndUserItem, EndUserRepository } from './end-user-repository.js';

/** The EndUserRepository on DynamoDB. */
export class DynamoEndUserRepository implements EndUserRepository {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(businessId: string, endUserId: string): Promise<EndUserItem | undefined> {
    const out = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { businessId, endUserId }, ConsistentRead: true }),
    );
    return out.Item as EndUserItem | undefined;
  }

  async upsert(
    businessId: string,
    endUserId: string,
    encrypted: Partial<Record<CredentialField, string>>,
    now: Date,
  ): Promise<void> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':now': now.toISOString() };
    const sets = ['updatedAt = :now', 'createdAt = if_not_exists(createdAt, :now)'];
    for (const [field, ct] of Object.entries(encrypted)) {
      names[`#${field}`] = field;
      values[`:${field}`] = ct;
      sets.push(`#${field} = :${field}`);
    }
    await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { businessId, endUserId },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: values,
      }),
    );
  }

  async clear(businessId: string, endUserId: string, fields: readonly CredentialField[], now: Date): Promise<void> {
    const list = fields.length ? fields : CREDENTIAL_FIELDS;
    const names = Object.fromEntries(list.map((f) => [`#${f}`, f]));
    await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { businessId, endUserId },
        UpdateExpression: `SET updatedAt = :now, createdAt = if_not_exists(createdAt, :now) REMOVE ${Object.keys(names).join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
  }
}
