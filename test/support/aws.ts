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
export async function useTestAws(): Promise<{ stop(): Promise<void> }> {
  process.env.BTS_KEYRING_FILE = join(mkdtempSync(join(tmpdir(), 'bts-keyring-')), 'keyring.json');
  process.env.BTS_LOG_LEVEL = 'SILENT';
  let stop = async () => undefined as void;
  if (!process.env.AWS_ENDPOINT_URL) {
    const e = await startEmulators();
    useEmulatorEndpoints(e);
    stop = e.stop;
  }
  resetConfig();
  resetClients();
  Object.assign(process.env, await provisionLocalResources());
  resetConfig();
  overrideDeps(undefined);
  return {
    async stop() {
      resetClients();
      await stop();
    },
  };
}

/** Unique ids keep tests independent even on a shared LocalStack. */
export const uniqueId = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
