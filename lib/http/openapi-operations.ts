import * as z from 'zod';
import { CredentialStatusSchema, DeleteCredentialsBody, PutCredentialsBody } from '../credentials/schemas.js';
import { DesignBody, DesignSubmittedSchema } from '../design/schemas.js';
import { CreateApiKeyBody, CreatedKeySchema, KeyListSchema } from '../keys/schemas.js';
import { ExtractorNameSchema } from '../tasks/design-result.js';
import {
  CancelledTaskSchema,
  CreateTaskBody,
  ListLimitQuery,
  SessionListSchema,
  SessionSchema,
  SubmittedSchema,
  TaskViewSchema,
} from '../tasks/schemas.js';
import { EndUserIdSchema, idParam } from '../validation.js';
import { ErrorSchema, OkSchema, QuotaErrorSchema, RateLimitErrorSchema, ServerErrorSchema } from './schemas.js';

/**
 * What the OpenAPI document says about each entry of ROUTES (routes.ts), keyed
 * `METHOD path`. Bodies are the very zod schemas the handlers validate with (a unit test
 * holds each handler's definition to this table); responses name the schemas the use
 * cases' return types are inferred from.
 */
export type AuthMode = 'apiKey' | 'dashboard' | 'none';

export interface ResponseSpec {
  description: string;
  schema: z.ZodType;
  /** Response headers beyond x-request-id, by name → description. */
  headers?: Record<string, string>;
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tag: 'service' | 'tasks' | 'sessions' | 'credentials' | 'design' | 'api-keys';
  auth: AuthMode;
  /** Schemas of `{name}` path segments; a segment not listed is a plain string. */
  pathParams?: Record<string, z.ZodType>;
  query?: Record<string, z.ZodType>;
  body?: { schema: z.ZodType; required: boolean };
  responses: Record<number, ResponseSpec>;
}

const error = (description: string): ResponseSpec => ({ description, schema: ErrorSchema });

/** The errors every route of an auth mode can answer, plus the body errors when it takes one. */
function common(auth: AuthMode, opts: { body?: boolean } = {}): Record<number, ResponseSpec> {
  const out: Record<number, ResponseSpec> = {};
  if (opts.body) {
    out[400] = error('Invalid request: malformed JSON, wrong Content-Type, or a field breaking its rule');
    out[413] = error('Request body over 1 MiB');
  }
  if (auth !== 'none') {
    out[401] = {
      ...error(
        auth === 'apiKey'
          ? 'Missing or unknown API key, or a dashboard token'
          : 'Missing or invalid dashboard token, or an API key',
      ),
      headers: { 'www-authenticate': 'Always `Bearer`' },
    };
  }
  if (auth === 'apiKey') {
    out[403] = error('Revoked API key, or a resource of another business');
    out[429] = rateLimited;
  }
  out[500] = { description: 'Server error; the body names the request id for support', schema: ServerErrorSchema };
  return out;
}

const rateLimited: ResponseSpec = {
  description: 'This API key sent more requests this minute than BTS_RATE_LIMIT_PER_MINUTE allows',
  schema: RateLimitErrorSchema,
  headers: { 'retry-after': 'Seconds until the next minute window' },
};
/** A submission's 429: the monthly quota (with `limit` and `used`) or the per-key rate limit. */
const quota: ResponseSpec = {
  description:
    'Monthly task quota reached (`limit`, `used`), or the per-key rate limit (`retryAfterSeconds`, Retry-After)',
  schema: z.union([QuotaErrorSchema, RateLimitErrorSchema]),
};
const taskId = { taskId: idParam('taskId').describe('The task id returned on submission') };
const longId = (name: string): ResponseSpec => error(`${name} over 256 characters`);

const designSubmit = (alias: boolean): OperationSpec => ({
  operationId: alias ? 'extractDesignWith' : 'extractDesign',
  summary: alias ? 'Submit a design extraction running one extractor' : 'Submit a design extraction',
  description: alias
    ? 'The path names the single extractor to run; an `extractors` field in the body is ignored.'
    : 'Runs in a fresh session. Poll GET /v1/tasks/{taskId} until the status is terminal; the result is in `design`.',
  tag: 'design',
  auth: 'apiKey',
  ...(alias ? { pathParams: { extractor: ExtractorNameSchema } } : {}),
  body: { schema: DesignBody, required: true },
  responses: {
    202: { description: 'Accepted: the task is pending', schema: DesignSubmittedSchema },
    ...common('apiKey', { body: true }),
    400: error(alias ? 'Invalid body, or an unknown path extractor' : 'Invalid body, or no valid extractor names'),
    429: quota,
    500: {
      description: 'The task could not be enqueued (nothing was kept or counted), or another server error',
      schema: ServerErrorSchema,
    },
  },
});

export const OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  'GET /health': {
    operationId: 'health',
    summary: 'Liveness check',
    tag: 'service',
    auth: 'none',
    responses: { 200: { description: 'The API answers', schema: OkSchema } },
  },
  'GET /v1/openapi.json': {
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tag: 'service',
    auth: 'none',
    responses: {
      200: { description: 'The OpenAPI 3.1 document of this API', schema: z.record(z.string(), z.unknown()) },
    },
  },
  'POST /v1/tasks': {
    operationId: 'createTask',
    summary: 'Submit an agent task, or a lookup task',
    description:
      'Answers at once with status `pending`; poll GET /v1/tasks/{taskId} (every 2 s is recommended) until the status is terminal. ' +
      'With `lookup` (our addition to the spec) the task runs one knowledge-graph recipe with no model and no browser.',
    tag: 'tasks',
    auth: 'apiKey',
    body: { schema: CreateTaskBody, required: true },
    responses: {
      201: { description: 'Created: the task is pending', schema: SubmittedSchema },
      ...common('apiKey', { body: true }),
      403: error('Revoked API key, or a sessionId of another business'),
      404: error('Unknown sessionId'),
      429: quota,
      500: {
        description:
          'The task could not be enqueued: it is kept as `failed` (its id is in `taskId`) and not counted. Other server errors too.',
        schema: ServerErrorSchema,
      },
      503: {
        description: 'No agent model is configured, so only `lookup` tasks can run; nothing was counted',
        schema: ServerErrorSchema,
      },
    },
  },
  'GET /v1/tasks': {
    operationId: 'listSessions',
    summary: "List the caller's sessions",
    description: 'One row per session, most recently active first. There is no cursor paging.',
    tag: 'tasks',
    auth: 'apiKey',
    query: { limit: ListLimitQuery },
    responses: {
      200: { description: 'Sessions', schema: SessionListSchema },
      ...common('apiKey'),
      400: error('`limit` is not a positive integer'),
    },
  },
  'GET /v1/tasks/{taskId}': {
    operationId: 'getTask',
    summary: 'Read a task',
    description: 'A failed task still answers 200; its `error` says why.',
    tag: 'tasks',
    auth: 'apiKey',
    pathParams: taskId,
    responses: {
      200: { description: 'The task record', schema: TaskViewSchema },
      ...common('apiKey'),
      400: longId('taskId'),
      404: error('Unknown task'),
    },
  },
  'POST /v1/tasks/{taskId}/cancel': {
    operationId: 'cancelTask',
    summary: 'Cancel a task',
    description: 'A pending task is cancelled at once (200); a running one stops at its next step (202).',
    tag: 'tasks',
    auth: 'apiKey',
    pathParams: taskId,
    responses: {
      200: { description: 'Cancelled: the task now reads `cancelled`', schema: CancelledTaskSchema },
      202: { description: 'Cancel requested: the running task stops at its next step', schema: CancelledTaskSchema },
      ...common('apiKey'),
      400: longId('taskId'),
      404: error('Unknown task'),
      409: error('The task already finished'),
    },
  },
  'GET /v1/sessions/{sessionId}': {
    operationId: 'getSession',
    summary: "Read a session's tasks",
    tag: 'sessions',
    auth: 'apiKey',
    pathParams: { sessionId: idParam('sessionId') },
    responses: {
      200: { description: 'The session, tasks oldest first', schema: SessionSchema },
      ...common('apiKey'),
      400: longId('sessionId'),
      404: error('Unknown session, or a session with no tasks'),
    },
  },
  'PUT /v1/end-users/{endUserId}/credentials': {
    operationId: 'putCredentials',
    summary: "Store an end-user's platform credentials",
    description: 'An idempotent upsert: fields not sent keep their values. Values are encrypted and never returned.',
    tag: 'credentials',
    auth: 'apiKey',
    pathParams: { endUserId: EndUserIdSchema },
    body: { schema: PutCredentialsBody, required: true },
    responses: {
      200: { description: 'Stored', schema: OkSchema },
      ...common('apiKey', { body: true }),
      400: error('Invalid body or endUserId, or no recognized credential field'),
    },
  },
  'GET /v1/end-users/{endUserId}/credentials': {
    operationId: 'getCredentials',
    summary: 'Which platforms an end-user has credentials for',
    tag: 'credentials',
    auth: 'apiKey',
    pathParams: { endUserId: EndUserIdSchema },
    responses: {
      200: { description: 'Booleans per platform, never a secret', schema: CredentialStatusSchema },
      ...common('apiKey'),
      400: error('endUserId over 256 characters'),
    },
  },
  'DELETE /v1/end-users/{endUserId}/credentials': {
    operationId: 'deleteCredentials',
    summary: "Clear an end-user's credentials",
    description: 'Irreversible. The end-user and their task history stay.',
    tag: 'credentials',
    auth: 'apiKey',
    pathParams: { endUserId: EndUserIdSchema },
    body: { schema: DeleteCredentialsBody, required: false },
    responses: {
      200: { description: 'Cleared', schema: OkSchema },
      ...common('apiKey', { body: true }),
      400: error('Invalid body (a `fields` entry that is not a credential field) or endUserId'),
    },
  },
  'POST /v1/design/extract': designSubmit(false),
  'POST /v1/design/extract/{extractor}': designSubmit(true),
  'POST /v1/api-keys': {
    operationId: 'createApiKey',
    summary: 'Mint an API key (dashboard)',
    description: 'The response is the only time the secret is shown.',
    tag: 'api-keys',
    auth: 'dashboard',
    body: { schema: CreateApiKeyBody, required: false },
    responses: {
      201: { description: 'Created', schema: CreatedKeySchema },
      ...common('dashboard', { body: true }),
    },
  },
  'GET /v1/api-keys': {
    operationId: 'listApiKeys',
    summary: "List the business's API keys (dashboard)",
    tag: 'api-keys',
    auth: 'dashboard',
    responses: {
      200: { description: 'Keys, without secrets', schema: KeyListSchema },
      ...common('dashboard'),
    },
  },
  'DELETE /v1/api-keys/{keyId}': {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key (dashboard)',
    description: 'Immediate and irreversible: the key answers 403 from the next request on.',
    tag: 'api-keys',
    auth: 'dashboard',
    pathParams: { keyId: z.string() },
    responses: {
      200: { description: 'Revoked', schema: OkSchema },
      ...common('dashboard'),
      404: error('Unknown key, or a key of another business'),
    },
  },
};
