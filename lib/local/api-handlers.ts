import type { ApiLambda } from './lambda-adapter.js';
import { handler as health } from '../../functions/api/health.js';
import { handler as createTask } from '../../functions/api/create-task.js';
import { handler as listTasks } from '../../functions/api/list-tasks.js';
import { handler as getTask } from '../../functions/api/get-task.js';
import { handler as cancelTask } from '../../functions/api/cancel-task.js';
import { handler as getSession } from '../../functions/api/get-session.js';
import { handler as putCredentials } from '../../functions/api/put-credentials.js';
import { handler as getCredentials } from '../../functions/api/get-credentials.js';
import { handler as deleteCredentials } from '../../functions/api/delete-credentials.js';
import { handler as createDesign } from '../../functions/api/create-design.js';
import { handler as createApiKey } from '../../functions/api/create-api-key.js';
import { handler as listApiKeys } from '../../functions/api/list-api-keys.js';
import { handler as revokeApiKey } from '../../functions/api/revoke-api-key.js';
import { handler as methodNotAllowed } from '../../functions/api/method-not-allowed.js';

/** Every API handler by its route-table name: the dev server serves these very functions. */
export const API_HANDLERS: Record<string, ApiLambda> = {
  'health': health,
  'create-task': createTask,
  'list-tasks': listTasks,
  'get-task': getTask,
  'cancel-task': cancelTask,
  'get-session': getSession,
  'put-credentials': putCredentials,
  'get-credentials': getCredentials,
  'delete-credentials': deleteCredentials,
  'create-design': createDesign,
  'create-api-key': createApiKey,
  'list-api-keys': listApiKeys,
  'revoke-api-key': revokeApiKey,
  'method-not-allowed': methodNotAllowed,
};
