import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetClients } from '../../lib/aws/clients.js';
import { resetConfig } from '../../lib/config.js';
import { overrideDeps } from '../../lib/deps.js';
import { startEmulators, useEmulatorEndpoints } from '../../lib/local/emulators.js';
import { provisionLocalResources } from '../../lib/local/provision.js';

/**
 * The integration tier's AWS: the embedded emulators by default, or whatever
 * AWS_ENDPOINT_URL points at (LocalStack: `AWS_ENDPOINT_URL=http://localhost:4566 npm run
 * test:integration`). Resources come from the same definitions either way.
 */
export interface TestAws {
  /** The environment naming the provisioned tables, queues and bucket. */
  env: Record<string, string>;
  dynamoEndpoint: string;
  sqsS3Endpoint: string;
  stop(): Promise<void>;
}

export async function useTestAws(): Promise<TestAws> {
  process.env.BTS_KEYRING_FILE = join(mkdtempSync(join(tmpdir(), 'bts-keyring-')), 'keyring.json');
  process.env.BTS_LOG_LEVEL = 'SILENT';
  let stop = async () => undefined as void;
  let endpoints = { dynamoEndpoint: process.env.AWS_ENDPOINT_URL ?? '', sqsS3Endpoint: process.env.AWS_ENDPOINT_URL ?? '' };
  if (!process.env.AWS_ENDPOINT_URL) {
    const e = await startEmulators();
    useEmulatorEndpoints(e);
    stop = e.stop;
    endpoints = e;
  }
  resetConfig();
  resetClients();
  const env = await provisionLocalResources();
  Object.assign(process.env, env);
  resetConfig();
  overrideDeps(undefined);
  return {
    env,
    dynamoEndpoint: endpoints.dynamoEndpoint,
    sqsS3Endpoint: endpoints.sqsS3Endpoint,
    async stop() {
      resetClients();
      await stop();
    },
  };
}

/** Unique ids keep tests independent even on a shared LocalStack. */
export const uniqueId = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
