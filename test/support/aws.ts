import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAwsClients, type AwsClients } from '../../lib/aws/clients.js';
import { loadConfig, type Config } from '../../lib/config.js';
import { createWorkerDeps, type WorkerDeps as Deps } from '../../lib/worker-deps.js';
import { startEmulators } from '../../lib/local/emulators.js';
import { provisionLocalResources } from '../../lib/local/provision.js';
import { EMULATOR_CREDENTIALS, emulatorEnv } from '../../lib/local/runtime-info.js';

/**
 * The integration tier's AWS: the embedded emulators by default, or whatever
 * AWS_ENDPOINT_URL points at (LocalStack: `AWS_ENDPOINT_URL=http://localhost:4566 npm run
 * test:integration`). Resources come from the same definitions either way; the test's
 * Config and Deps are its own, nothing is written to the process environment.
 */
export interface TestAws {
  config: Config;
  clients: AwsClients;
  deps: Deps;
  /** Deps for a config with these settings changed (budgets, the network policy…). */
  depsWith(env: Record<string, string>): Deps;
  dynamoEndpoint: string;
  sqsS3Endpoint: string;
  stop(): Promise<void>;
}

export async function useTestAws(env: Record<string, string> = {}): Promise<TestAws> {
  const base: Record<string, string> = {
    BTS_KEYRING_FILE: join(mkdtempSync(join(tmpdir(), 'bts-keyring-')), 'keyring.json'),
    BTS_LOG_LEVEL: 'SILENT',
    ...env,
  };
  let stop = async () => undefined as void;
  let endpoints = {
    dynamoEndpoint: process.env.AWS_ENDPOINT_URL ?? '',
    sqsS3Endpoint: process.env.AWS_ENDPOINT_URL ?? '',
  };
  if (process.env.AWS_ENDPOINT_URL) base.AWS_ENDPOINT_URL = process.env.AWS_ENDPOINT_URL;
  else {
    const e = await startEmulators();
    Object.assign(base, emulatorEnv(e));
    stop = e.stop;
    endpoints = e;
  }
  const clients = createAwsClients(loadConfig(base), { credentials: EMULATOR_CREDENTIALS });
  const resources = await provisionLocalResources(clients);
  const settings = { ...base, ...resources };
  const config = loadConfig(settings);
  const deps = createWorkerDeps(config, clients);
  const extra: Deps[] = [];
  return {
    config,
    clients,
    deps,
    depsWith(changes) {
      const d = createWorkerDeps(loadConfig({ ...settings, ...changes }), clients);
      extra.push(d);
      return d;
    },
    dynamoEndpoint: endpoints.dynamoEndpoint,
    sqsS3Endpoint: endpoints.sqsS3Endpoint,
    async stop() {
      await Promise.all([deps, ...extra].map((d) => d.browsers.close()));
      clients.destroy();
      await stop();
    },
  };
}

/** Unique ids keep tests independent even on a shared LocalStack. */
export const uniqueId = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
