import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, EncryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { KmsEncryptor } from '../../../lib/credentials/kms-encryptor.js';
import { LocalKeyringEncryptor } from '../../../lib/credentials/local-keyring-encryptor.js';
import { PutCredentialsBody } from '../../../lib/credentials/schemas.js';

/**
 * A KMS stand-in that behaves as AWS documents: Encrypt refuses plaintexts over 4096
 * bytes, data keys are 32 random bytes, and Decrypt insists on the encryption context
 * the blob was made under.
 */
function fakeKms() {
  const kms = mockClient(KMSClient);
  const blobs = new Map<string, { plaintext: Uint8Array; context: string }>();
  const remember = (plaintext: Uint8Array, context: Record<string, string> | undefined): Uint8Array => {
    const blob = randomBytes(48);
    blobs.set(blob.toString('hex'), { plaintext, context: JSON.stringify(context ?? {}) });
    return blob;
  };
  kms.on(EncryptCommand).callsFake((input: { Plaintext: Uint8Array; EncryptionContext?: Record<string, string> }) => {
    if (input.Plaintext.length > 4096) {
      throw Object.assign(
        new Error(
          "1 validation error detected: Value at 'plaintext' failed to satisfy constraint: Member must have length less than or equal to 4096",
        ),
        { name: 'ValidationException' },
      );
    }
    return { CiphertextBlob: remember(input.Plaintext, input.EncryptionContext) };
  });
  kms.on(GenerateDataKeyCommand).callsFake((input: { EncryptionContext?: Record<string, string> }) => {
    const key = randomBytes(32);
    return { Plaintext: key, CiphertextBlob: remember(key, input.EncryptionContext) };
  });
  kms
    .on(DecryptCommand)
    .callsFake((input: { CiphertextBlob: Uint8Array; EncryptionContext?: Record<string, string> }) => {
      const found = blobs.get(Buffer.from(input.CiphertextBlob).toString('hex'));
      if (!found || found.context !== JSON.stringify(input.EncryptionContext ?? {})) {
        throw Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' });
      }
      return { Plaintext: found.plaintext };
    });
  return kms;
}

const ctx = { businessId: 'b1', endUserId: 'u1' };

describe('KmsEncryptor (envelope encryption)', () => {
  const kms = fakeKms();
  let clock = 0;
  const make = () => new KmsEncryptor(new KMSClient({ region: 'us-east-1' }), 'alias/bts', { now: () => clock });
  beforeEach(() => {
    kms.resetHistory();
    clock = 0;
  });

  it('round-trips a 100 KB session state, which KMS Encrypt alone refuses', async () => {
    // Prepare
    const state = JSON.stringify({
      cookies: [],
      origins: [{ origin: 'https://x', localStorage: [{ name: 'k', value: 'v'.repeat(100_000) }] }],
    });
    // Act
    const ct = await make().encrypt(state, ctx);
    // Assess
    expect(ct.startsWith('kms2:')).toBe(true);
    expect(await make().decrypt(ct, ctx)).toBe(state);
    expect(kms.commandCalls(EncryptCommand)).toHaveLength(0);
    expect(kms.commandCalls(GenerateDataKeyCommand)[0]?.args[0].input).toMatchObject({
      KeyId: 'alias/bts',
      KeySpec: 'AES_256',
      EncryptionContext: ctx,
    });
  });

  it('binds the context twice: KMS refuses the data key and GCM refuses the value for another end-user or field', async () => {
    const enc = make();
    const ct = await enc.encrypt('cookie', { ...ctx, field: 'redditSession' });
    await expect(enc.decrypt(ct, { businessId: 'b1', endUserId: 'u2', field: 'redditSession' })).rejects.toThrow();
    await expect(enc.decrypt(ct, { ...ctx, field: 'twitterCt0' })).rejects.toThrow();
    expect(await enc.decrypt(ct, { ...ctx, field: 'redditSession' })).toBe('cookie');
    // Only who, never which field, reaches KMS: the IAM condition names exactly these keys.
    for (const call of kms.commandCalls(DecryptCommand))
      expect(Object.keys(call.args[0].input.EncryptionContext ?? {}).sort()).toEqual(['businessId', 'endUserId']);
  });

  it('reuses a data key per context for a few minutes, then asks KMS again', async () => {
    const enc = make();
    await enc.encrypt('a', ctx);
    await enc.encrypt('b', { ...ctx, field: 'twitterCt0' });
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(1);
    await enc.encrypt('c', { businessId: 'b1', endUserId: 'u2' });
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(2);
    clock += 5 * 60_000 + 1;
    await enc.encrypt('d', ctx);
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(3);
  });

  it('still reads `kms:` ciphertexts written by direct KMS Encrypt', async () => {
    const client = new KMSClient({ region: 'us-east-1' });
    const legacy = await client.send(
      new EncryptCommand({ KeyId: 'alias/bts', Plaintext: Buffer.from('old-secret'), EncryptionContext: ctx }),
    );
    const ct = `kms:${Buffer.from(legacy.CiphertextBlob ?? new Uint8Array()).toString('base64')}`;
    expect(await make().decrypt(ct, { ...ctx, field: 'redditSession' })).toBe('old-secret');
  });

  it('refuses ciphertext that KMS did not produce', async () => {
    await expect(make().decrypt('local2:x:y:z:w', ctx)).rejects.toThrow(/not produced by KMS/);
  });
});

describe('LocalKeyringEncryptor', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'keyring-')), 'keyring.json');

  it('refuses a ciphertext whose auth tag was cut short', async () => {
    // Prepare: a valid ciphertext, then its 16-byte tag cut to 4 bytes (Node would accept it).
    const enc = new LocalKeyringEncryptor(file);
    const [scheme, keyId, iv, tag, body] = (await enc.encrypt('cookie', ctx)).split(':');
    const short = [
      scheme,
      keyId,
      iv,
      Buffer.from(tag ?? '', 'base64')
        .subarray(0, 4)
        .toString('base64'),
      body,
    ].join(':');
    // Act / Assess
    await expect(enc.decrypt(short, ctx)).rejects.toThrow(/16 bytes/);
  });

  it('still reads `local:` ciphertexts written before the field was bound', async () => {
    // Prepare: the first format, sealed by hand with the keyring's own key and the old additional data.
    const enc = new LocalKeyringEncryptor(file);
    await enc.encrypt('warm-up', ctx);
    const ring = JSON.parse(readFileSync(file, 'utf8')) as { current: string; keys: Record<string, string> };
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(ring.keys[ring.current] ?? '', 'base64'), iv);
    cipher.setAAD(
      Buffer.from(
        JSON.stringify([
          ['businessId', 'b1'],
          ['endUserId', 'u1'],
        ]),
      ),
    );
    const body = Buffer.concat([cipher.update('legacy', 'utf8'), cipher.final()]);
    const legacy = [
      'local',
      ring.current,
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      body.toString('base64'),
    ].join(':');
    // Act / Assess
    expect(await enc.decrypt(legacy, { ...ctx, field: 'redditSession' })).toBe('legacy');
  });

  it('binds credential ciphertexts to their field', async () => {
    const enc = new LocalKeyringEncryptor(file);
    const ct = await enc.encrypt('cookie', { ...ctx, field: 'redditSession' });
    await expect(enc.decrypt(ct, { ...ctx, field: 'twitterAuthToken' })).rejects.toThrow();
    expect(await enc.decrypt(ct, { ...ctx, field: 'redditSession' })).toBe('cookie');
  });
});

describe('credential value size', () => {
  it.each([
    ['8192 ASCII bytes', 'a'.repeat(8192), true],
    ['8193 ASCII bytes', 'a'.repeat(8193), false],
    ['3000 three-byte characters (9000 bytes)', '€'.repeat(3000), false],
  ])('%s', (_label, value, ok) => {
    const r = PutCredentialsBody.safeParse({ redditSession: value });
    expect(r.success).toBe(ok);
    if (!r.success) expect(r.error.issues[0]?.message).toMatch(/at most 8192 bytes/);
  });
});
