import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { LocalKeyringEncryptor } from '../../../lib/credentials/local-keyring-encryptor.js';
import { SqsTaskQueue } from '../../../lib/tasks/sqs-task-queue.js';

describe('LocalKeyringEncryptor', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'keyring-')), 'keyring.json');

  it('round-trips, randomises, and binds the context', async () => {
    const enc = new LocalKeyringEncryptor(file);
    const ctx = { businessId: 'b', endUserId: 'u' };
    const a = await enc.encrypt('cookie', ctx);
    const b = await enc.encrypt('cookie', ctx);
    expect(a).not.toBe(b);
    expect(a).not.toContain('cookie');
    expect(await new LocalKeyringEncryptor(file).decrypt(a, ctx)).toBe('cookie');
    await expect(enc.decrypt(a, { businessId: 'b', endUserId: 'other' })).rejects.toThrow();
    await expect(enc.decrypt(a, { businessId: 'other', endUserId: 'u' })).rejects.toThrow();
  });

  it.each([['garbage'], ['local:nokey:AAAA:AAAA:AAAA'], ['local2:nokey:AAAA:AAAA:AAAA'], ['kms:AQID']])(
    'rejects malformed ciphertext %s',
    async (ct) => {
      await expect(new LocalKeyringEncryptor(file).decrypt(ct, { businessId: 'b', endUserId: 'u' })).rejects.toThrow();
    },
  );
});

describe('SqsTaskQueue', () => {
  const sqs = mockClient(SQSClient);
  beforeEach(() => sqs.reset());

  it.each([
    ['agent', 'https://q/agent'],
    ['design', 'https://q/design'],
  ] as const)('sends %s tasks to their own queue', async (kind, url) => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
    await new SqsTaskQueue(new SQSClient({ region: 'us-east-1' }), {
      agent: 'https://q/agent',
      design: 'https://q/design',
    }).send({ taskId: 't', kind });
    expect(sqs.commandCalls(SendMessageCommand)[0]?.args[0].input).toEqual({
      QueueUrl: url,
      MessageBody: JSON.stringify({ taskId: 't', kind }),
    });
  });

  it('fails clearly without a configured queue', async () => {
    await expect(
      new SqsTaskQueue(new SQSClient({ region: 'us-east-1' }), { agent: '', design: '' }).send({
        taskId: 't',
        kind: 'agent',
      }),
    ).rejects.toThrow(/No queue configured/);
  });
});
