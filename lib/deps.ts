import { config } from './config.js';
import { documentClient, kmsClient, s3Client, sqsClient } from './aws/clients.js';
import { DynamoTaskRepository, type TaskRepository } from './tasks/task-repository.js';
import { DynamoSessionRepository, type SessionRepository } from './sessions/session-repository.js';
import { DynamoApiKeyRepository, type ApiKeyRepository } from './keys/api-key-repository.js';
import {
  DynamoBusinessRepository,
  DynamoUsageRepository,
  type BusinessRepository,
  type UsageRepository,
} from './quota/quota-repository.js';
import { DynamoEndUserRepository, type EndUserRepository } from './credentials/end-user-repository.js';
import { KmsEncryptor, LocalKeyringEncryptor, type Encryptor } from './credentials/encryptor.js';
import { SqsTaskQueue, type TaskQueue } from './tasks/task-queue.js';
import { S3ResultStore, type ResultStore } from './tasks/result-store.js';
import {
  CognitoDashboardTokens,
  LocalDashboardTokens,
  type DashboardTokenVerifier,
} from './auth/dashboard-token.js';

/** Everything a use case may need, behind ports. Built once per process, lazily. */
export interface Deps {
  tasks: TaskRepository;
  sessions: SessionRepository;
  apiKeys: ApiKeyRepository;
  businesses: BusinessRepository;
  usage: UsageRepository;
  endUsers: EndUserRepository;
  encryptor: Encryptor;
  queue: TaskQueue;
  results: ResultStore;
  dashboardTokens: DashboardTokenVerifier;
  now: () => Date;
  defaultQuota: number;
  lastUsedResolutionMs: number;
}

let cached: Deps | undefined;

export function deps(): Deps {
  cached ??= buildDeps();
  return cached;
}

/** Tests swap single ports (a failing queue, say) without touching the rest. */
export function overrideDeps(patch: Partial<Deps> | undefined): void {
  cached = patch ? { ...deps(), ...patch } : undefined;
}

function buildDeps(): Deps {
  const c = config();
  const ddb = documentClient();
  return {
    tasks: new DynamoTaskRepository(ddb, c.TASKS_TABLE),
    sessions: new DynamoSessionRepository(ddb, c.SESSIONS_TABLE),
    apiKeys: new DynamoApiKeyRepository(ddb, c.API_KEYS_TABLE),
    businesses: new DynamoBusinessRepository(ddb, c.BUSINESSES_TABLE),
    usage: new DynamoUsageRepository(ddb, c.USAGE_TABLE),
    endUsers: new DynamoEndUserRepository(ddb, c.END_USERS_TABLE),
    encryptor: c.BTS_ENCRYPTOR === 'kms' ? new KmsEncryptor(kmsClient(), c.KMS_KEY_ID) : new LocalKeyringEncryptor(c.BTS_KEYRING_FILE),
    queue: new SqsTaskQueue(sqsClient(), { agent: c.AGENT_QUEUE_URL, design: c.DESIGN_QUEUE_URL }),
    results: new S3ResultStore(s3Client(), c.ASSETS_BUCKET),
    dashboardTokens: lazyVerifier(() =>
      c.BTS_DASHBOARD_AUTH === 'cognito'
        ? new CognitoDashboardTokens(c.COGNITO_USER_POOL_ID, c.COGNITO_CLIENT_ID)
        : new LocalDashboardTokens(c.BTS_DASHBOARD_SECRET),
    ),
    now: () => new Date(),
    defaultQuota: c.BTS_DEFAULT_QUOTA,
    lastUsedResolutionMs: c.BTS_LAST_USED_RESOLUTION_S * 1000,
  };
}

/** Only the dashboard routes verify tokens; workers and data-plane functions never need the secret. */
function lazyVerifier(make: () => DashboardTokenVerifier): DashboardTokenVerifier {
  let verifier: DashboardTokenVerifier | undefined;
  return { verify: (token) => (verifier ??= make()).verify(token) };
}
