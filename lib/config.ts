import * as z from 'zod';
import { formatIssues } from './validation.js';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const list = z.string().transform((v) =>
  v
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean),
);

const ConfigSchema = z.object({
  STAGE: z.string().default('local'),
  AWS_REGION: z.string().default('us-east-1'),
  /** Set by Lambda itself; tells the browser launcher it runs in a one-task sandbox. */
  AWS_LAMBDA_FUNCTION_NAME: z.string().optional(),
  /** Endpoints of LocalStack, the embedded emulators or another AWS-compatible service. */
  AWS_ENDPOINT_URL: z.string().optional(),
  AWS_ENDPOINT_URL_DYNAMODB: z.string().optional(),
  AWS_ENDPOINT_URL_SQS: z.string().optional(),
  AWS_ENDPOINT_URL_S3: z.string().optional(),
  AWS_ENDPOINT_URL_KMS: z.string().optional(),

  TASKS_TABLE: z.string().default('bts-local-tasks'),
  SESSIONS_TABLE: z.string().default('bts-local-sessions'),
  API_KEYS_TABLE: z.string().default('bts-local-apikeys'),
  END_USERS_TABLE: z.string().default('bts-local-endusers'),
  USAGE_TABLE: z.string().default('bts-local-usage'),
  BUSINESSES_TABLE: z.string().default('bts-local-businesses'),
  ACTIVITY_TABLE: z.string().default('bts-local-activity'),
  AGENT_QUEUE_URL: z.string().default(''),
  DESIGN_QUEUE_URL: z.string().default(''),
  ASSETS_BUCKET: z.string().default('bts-local-assets'),

  /** `kms` in AWS; `local` uses the AES-256-GCM keyring file. */
  BTS_ENCRYPTOR: z.enum(['kms', 'local']).default('local'),
  KMS_KEY_ID: z.string().default(''),
  BTS_KEYRING_FILE: z.string().default('.data/keyring.json'),

  /** `cognito` verifies user-pool tokens; `local` verifies HS256 tokens signed by the local runtime. */
  BTS_DASHBOARD_AUTH: z.enum(['cognito', 'local']).default('local'),
  BTS_DASHBOARD_SECRET: z.string().default(''),
  COGNITO_USER_POOL_ID: z.string().default(''),
  COGNITO_CLIENT_ID: z.string().default(''),

  BTS_DEFAULT_QUOTA: z.coerce.number().int().positive().default(15),
  /**
   * Requests per API key per minute (fixed window), on top of the stage-wide throttle; 0
   * turns the per-key limit off. 600 lets one key poll 20 tasks every 2 s.
   */
  BTS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().nonnegative().default(600),
  /** Tasks of one business running at once, agent and design workers together; 0 means no cap. */
  BTS_MAX_RUNNING_PER_BUSINESS: z.coerce.number().int().nonnegative().default(5),
  /** First backoff of a transient worker failure, doubled per attempt (capped at 5 minutes). */
  BTS_RETRY_DELAY_S: z.coerce.number().int().positive().default(10),
  // Case-insensitive: the MCP server's --log-level mirror (BTS_LOG_LEVEL) is lowercase.
  BTS_LOG_LEVEL: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']))
    .default('INFO'),

  // Worker and browser.
  CHROMIUM_PATH: z.string().optional(),
  BTS_ALLOW_PRIVATE_NETWORK: bool.default(false),
  BTS_PROXY_POOL: list.default([]),
  BTS_DESIGN_BUDGET_MS: z.coerce.number().int().positive().default(60_000),
  BTS_AGENT_BUDGET_MS: z.coerce.number().int().positive().default(180_000),
  BTS_SWEEP_GRACE_MS: z.coerce.number().int().nonnegative().default(60_000),
  BTS_ASSET_URL_TTL_S: z.coerce.number().int().positive().default(3600),
  /** The bundled knowledge-graph index; the worker image copies data/ next to the handlers. */
  BTS_KNOWLEDGE_GRAPH_DIR: z.string().default('data/knowledgegraphindex'),

  // Agent model.
  BTS_MODEL_PROVIDER: z.enum(['bedrock', 'openai', 'anthropic', 'openai-compatible']).optional(),
  BTS_MODEL: z.string().optional(),
  BTS_MODEL_BASE_URL: z.string().optional(),
  /** Bearer key for openai-compatible gateways that need one (the others read their own variables). */
  BTS_MODEL_API_KEY: z.string().optional(),
});

/**
 * The service's settings. Only `loadConfig` reads the environment, and only entry points
 * call it (Lambda handlers, the local runtime, the CLIs); everything else receives a
 * `Config` through `createDeps`, so tests and the local runtime configure a process by
 * building one instead of writing to `process.env`.
 */
export type Config = z.infer<typeof ConfigSchema>;

/** Builds a Config from environment-style variables; unknown variables are ignored. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid configuration: ${formatIssues(parsed.error.issues, { all: true })}`);
  return parsed.data;
}
