import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { resetClients } from '../aws/clients.js';
import { resetConfig } from '../config.js';
import { overrideDeps, deps } from '../deps.js';
import { createApiKey, type CreatedKey } from '../keys/use-cases.js';
import { startEmulatorsThread, useEmulatorEndpoints, type Emulators } from './emulators.js';
import { provisionLocalResources } from './provision.js';
import { startApiServer } from './http-server.js';
import { removeRuntimeInfo, writeRuntimeInfo } from './runtime-info.js';
import { startWorkerLoop } from './worker-loop.js';
import { startSweeperTimer } from '../worker/sweeper.js';

export interface LocalRuntimeOptions {
  dataDir: string;
  port: number;
  host?: string;
  /** Run the queue workers in this process (the default for `npm start`). */
  workers?: boolean;
  /** Extra environment applied before anything reads configuration (tests). */
  env?: Record<string, string>;
}

export interface LocalRuntime {
  url: string;
  dataDir: string;
  /** Set only on the first start of a data directory: the bootstrap key, shown once. */
  bootstrapKey?: CreatedKey;
  businessId: string;
  stop(): Promise<void>;
}

export const LOCAL_BUSINESS_ID = 'local-business';

/** A secret kept in the data directory, created on first use. */
function persistentSecret(file: string): string {
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export const dashboardSecretFile = (dataDir: string): string => join(dataDir, 'dashboard-secret');

/**
 * The whole service in one process: dynalite (persisted under dataDir), fauxqs (SQS + S3),
 * the local keyring, resources from the shared definitions, the API handlers behind a dev
 * server, and the queue workers.
 */
export async function startLocalRuntime(opts: LocalRuntimeOptions): Promise<LocalRuntime> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const emulators: Emulators = await startEmulatorsThread({ dynamoPath: join(dataDir, 'dynamodb') });
  useEmulatorEndpoints(emulators);
  process.env.BTS_KEYRING_FILE = join(dataDir, 'keyring.json');
  process.env.BTS_DASHBOARD_SECRET = persistentSecret(dashboardSecretFile(dataDir));
  process.env.BTS_ENCRYPTOR = 'local';
  process.env.BTS_DASHBOARD_AUTH = 'local';
  // Local fixture pages and dev sites live on loopback; AWS keeps the guard on.
  process.env.BTS_ALLOW_PRIVATE_NETWORK ??= 'true';
  Object.assign(process.env, opts.env ?? {});
  resetConfig();
  resetClients();
  overrideDeps(undefined);
  const resourceEnv = await provisionLocalResources();
  Object.assign(process.env, resourceEnv);
  resetConfig();
  overrideDeps(undefined);

  const marker = join(dataDir, 'bootstrap.json');
  let bootstrapKey: CreatedKey | undefined;
  if (!existsSync(marker)) {
    bootstrapKey = await createApiKey(deps(), LOCAL_BUSINESS_ID, 'local bootstrap key');
    writeFileSync(marker, JSON.stringify({ businessId: LOCAL_BUSINESS_ID, keyId: bootstrapKey.keyId }));
  }

  const { server, url } = await startApiServer({ port: opts.port, host: opts.host ?? '127.0.0.1' });
  writeRuntimeInfo(dataDir, {
    pid: process.pid,
    apiUrl: url,
    dynamoEndpoint: emulators.dynamoEndpoint,
    sqsS3Endpoint: emulators.sqsS3Endpoint,
    env: {
      ...resourceEnv,
      BTS_KEYRING_FILE: process.env.BTS_KEYRING_FILE,
      BTS_ENCRYPTOR: 'local',
      BTS_DASHBOARD_AUTH: 'local',
    },
  });

  const stopWorkers = opts.workers === false ? async () => undefined : await startWorkerLoop();
  // In AWS an EventBridge schedule runs the sweeper; locally a timer does.
  const stopSweeper = opts.workers === false ? async () => undefined : startSweeperTimer(30_000);

  return {
    url,
    dataDir,
    bootstrapKey,
    businessId: LOCAL_BUSINESS_ID,
    async stop() {
      await stopSweeper();
      await stopWorkers();
      await closeServer(server);
      removeRuntimeInfo(dataDir);
      resetClients();
      await emulators.stop();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });
}
