import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { createAwsClients } from '../aws/clients.js';
import { loadConfig, type Config } from '../config.js';
import { createWorkerDeps, type WorkerDeps } from '../worker-deps.js';
import { createApiKey, type CreatedKey } from '../keys/use-cases.js';
import { startSweeperTimer } from '../worker/sweeper.js';
import { apiHandlers } from './api-handlers.js';
import { startEmulatorsThread, type Emulators } from './emulators.js';
import { startApiServer } from './http-server.js';
import { provisionLocalResources } from './provision.js';
import { EMULATOR_CREDENTIALS, emulatorEnv, removeRuntimeInfo, writeRuntimeInfo } from './runtime-info.js';
import { startWorkerLoop } from './worker-loop.js';

export interface LocalRuntimeOptions {
  dataDir: string;
  port: number;
  host?: string;
  /** Run the queue workers in this process (the default for `npm start`). */
  workers?: boolean;
  /** Environment-style settings: `npm start` passes the process environment, tests their own. */
  env?: Record<string, string | undefined>;
}

export interface LocalRuntime {
  url: string;
  dataDir: string;
  /** Set only on the first start of a data directory: the bootstrap key, shown once. */
  bootstrapKey?: CreatedKey;
  businessId: string;
  config: Config;
  /** The deps every handler, worker and the sweeper of this runtime use. */
  readonly deps: WorkerDeps;
  /** Replaces ports of the running deps (a failing queue in a test); returns the undo. */
  swapPorts(patch: Partial<WorkerDeps>): () => void;
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
 * server, and the queue workers, all wired through one Deps built from one Config.
 */
export async function startLocalRuntime(opts: LocalRuntimeOptions): Promise<LocalRuntime> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const emulators: Emulators = await startEmulatorsThread({ dynamoPath: join(dataDir, 'dynamodb') });
  const local = {
    ...emulatorEnv(emulators),
    BTS_KEYRING_FILE: join(dataDir, 'keyring.json'),
    BTS_DASHBOARD_SECRET: persistentSecret(dashboardSecretFile(dataDir)),
    BTS_ENCRYPTOR: 'local',
    BTS_DASHBOARD_AUTH: 'local',
  };
  // Local fixture pages and dev sites live on loopback; AWS keeps the guard on.
  const env = { BTS_ALLOW_PRIVATE_NETWORK: 'true', ...opts.env, ...local };
  const clients = createAwsClients(loadConfig(env), { credentials: EMULATOR_CREDENTIALS });
  const resourceEnv = await provisionLocalResources(clients);
  const config = loadConfig({ ...env, ...resourceEnv });
  // The emulators answer any request without a signature check: no page may reach them.
  const refusedLocalPorts = new Set(
    [emulators.dynamoEndpoint, emulators.sqsS3Endpoint].map((e) => Number(new URL(e).port)),
  );
  let deps = createWorkerDeps(config, clients, { hostEnv: () => opts.env ?? {}, refusedLocalPorts });
  const getDeps = () => deps;

  const marker = join(dataDir, 'bootstrap.json');
  let bootstrapKey: CreatedKey | undefined;
  if (!existsSync(marker)) {
    bootstrapKey = await createApiKey(deps, { businessId: LOCAL_BUSINESS_ID }, { label: 'local bootstrap key' });
    writeFileSync(marker, JSON.stringify({ businessId: LOCAL_BUSINESS_ID, keyId: bootstrapKey.keyId }));
  }

  const { server, url } = await startApiServer({
    port: opts.port,
    host: opts.host ?? '127.0.0.1',
    handlers: apiHandlers(getDeps),
  });
  writeRuntimeInfo(dataDir, {
    pid: process.pid,
    apiUrl: url,
    dynamoEndpoint: emulators.dynamoEndpoint,
    sqsS3Endpoint: emulators.sqsS3Endpoint,
    env: {
      ...resourceEnv,
      BTS_KEYRING_FILE: local.BTS_KEYRING_FILE,
      BTS_ENCRYPTOR: 'local',
      BTS_DASHBOARD_AUTH: 'local',
    },
  });

  const workers = opts.workers !== false;
  const stopWorkers = workers ? await startWorkerLoop({ deps: getDeps, sqs: clients.sqs }) : async () => undefined;
  // In AWS an EventBridge schedule runs the sweeper; locally a timer does.
  const stopSweeper = workers ? startSweeperTimer(getDeps, 30_000) : async () => undefined;

  return {
    url,
    dataDir,
    bootstrapKey,
    businessId: LOCAL_BUSINESS_ID,
    config,
    get deps() {
      return deps;
    },
    swapPorts(patch) {
      const before = deps;
      deps = { ...deps, ...patch };
      return () => {
        deps = before;
      };
    },
    async stop() {
      await stopSweeper();
      await stopWorkers();
      await closeServer(server);
      await deps.browsers.close();
      removeRuntimeInfo(dataDir);
      clients.destroy();
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
