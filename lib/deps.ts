import type { DashboardTokenVerifier } from './auth/dashboard-tokens.js';
import { CognitoDashboardTokens } from './auth/cognito-dashboard-tokens.js';
import { LocalDashboardTokens } from './auth/local-dashboard-tokens.js';
import type { AwsClients } from './aws/clients.js';
import type { Config } from './config.js';
import { DynamoEndUserRepository } from './credentials/dynamo-end-user-repository.js';
import type { Encryptor } from './credentials/encryptor.js';
import type { EndUserRepository } from './credentials/end-user-repository.js';
import { KmsEncryptor } from './credentials/kms-encryptor.js';
import { LocalKeyringEncryptor } from './credentials/local-keyring-encryptor.js';
import type { ApiKeyRepository } from './keys/api-key-repository.js';
import { DynamoApiKeyRepository } from './keys/dynamo-api-key-repository.js';
import { DynamoKeyActivityRepository } from './keys/dynamo-key-activity-repository.js';
import type { KeyActivityRepository } from './keys/key-activity-repository.js';
import { KnowledgeIndex } from './knowledge/index.js';
import { createLogger, type Logger } from './logger.js';
import { DynamoBusinessRepository, DynamoUsageRepository } from './quota/dynamo-quota-repository.js';
import type { BusinessRepository, UsageRepository } from './quota/quota-repository.js';
import { DynamoSessionRepository } from './tasks/dynamo-session-repository.js';
import { DynamoTaskRepository } from './tasks/dynamo-task-repository.js';
import type { ResultStore } from './tasks/result-store.js';
import { DynamoRunningSlots } from './tasks/dynamo-running-slots.js';
import type { RunningSlots } from './tasks/running-slots.js';
import { S3ResultStore } from './tasks/s3-result-store.js';
import type { SessionRepository } from './tasks/session-repository.js';
import { SqsTaskQueue } from './tasks/sqs-task-queue.js';
import type { TaskQueue } from './tasks/task-queue.js';
import type { TaskRepository } from './tasks/task-repository.js';

/** Everything a use case, handler or job may need: ports, settings and the clock. */
export interface Deps {
  config: Config;
  logger: Logger;
  tasks: TaskRepository;
  sessions: SessionRepository;
  apiKeys: ApiKeyRepository;
  keyActivity: KeyActivityRepository;
  businesses: BusinessRepository;
  usage: UsageRepository;
  endUsers: EndUserRepository;
  encryptor: Encryptor;
  queue: TaskQueue;
  slots: RunningSlots;
  results: ResultStore;
  dashboardTokens: DashboardTokenVerifier;
  /** The bundled knowledge-graph index, read on first use (lookup tasks are checked at submission). */
  knowledge: () => Promise<KnowledgeIndex>;
  now: () => Date;
}

/**
 * Wires ports to adapters from a Config and the process's SDK clients. Pure: nothing is
 * read or connected until a port is used, so an API Lambda pays for what its route
 * touches. Entry points build one per process; tests and the local runtime build theirs
 * from a Config of their own. Workers add the browser side (lib/worker-deps.ts), which
 * API bundles never import.
 */
export function createDeps(config: Config, clients: AwsClients): Deps {
  let knowledge: Promise<KnowledgeIndex> | undefined;
  return {
    config,
    logger: createLogger(config.BTS_LOG_LEVEL),
    tasks: new DynamoTaskRepository(clients.ddb, config.TASKS_TABLE),
    sessions: new DynamoSessionRepository(clients.ddb, config.SESSIONS_TABLE),
    apiKeys: new DynamoApiKeyRepository(clients.ddb, config.API_KEYS_TABLE),
    keyActivity: new DynamoKeyActivityRepository(clients.ddb, config.ACTIVITY_TABLE),
    businesses: new DynamoBusinessRepository(clients.ddb, config.BUSINESSES_TABLE),
    usage: new DynamoUsageRepository(clients.ddb, config.USAGE_TABLE),
    endUsers: new DynamoEndUserRepository(clients.ddb, config.END_USERS_TABLE),
    encryptor:
      config.BTS_ENCRYPTOR === 'kms'
        ? new KmsEncryptor(clients.kms, config.KMS_KEY_ID)
        : new LocalKeyringEncryptor(config.BTS_KEYRING_FILE),
    queue: new SqsTaskQueue(clients.sqs, { agent: config.AGENT_QUEUE_URL, design: config.DESIGN_QUEUE_URL }),
    slots: new DynamoRunningSlots(clients.ddb, config.ACTIVITY_TABLE),
    results: new S3ResultStore(clients.s3, config.ASSETS_BUCKET),
    dashboardTokens: lazyVerifier(() =>
      config.BTS_DASHBOARD_AUTH === 'cognito'
        ? new CognitoDashboardTokens(config.COGNITO_USER_POOL_ID, config.COGNITO_CLIENT_ID)
        : new LocalDashboardTokens(config.BTS_DASHBOARD_SECRET),
    ),
    knowledge: () => (knowledge ??= KnowledgeIndex.load(config.BTS_KNOWLEDGE_GRAPH_DIR)),
    now: () => new Date(),
  };
}

/** Only the dashboard routes verify tokens; workers and data-plane functions never need the secret. */
function lazyVerifier(make: () => DashboardTokenVerifier): DashboardTokenVerifier {
  let verifier: DashboardTokenVerifier | undefined;
  return { verify: (token) => (verifier ??= make()).verify(token) };
}
