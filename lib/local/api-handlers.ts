import { cancelTask } from '../../functions/api/cancel-task.js';
import { createApiKey } from '../../functions/api/create-api-key.js';
import { createDesign } from '../../functions/api/create-design.js';
import { createTask } from '../../functions/api/create-task.js';
import { deleteCredentials } from '../../functions/api/delete-credentials.js';
import { getCredentials } from '../../functions/api/get-credentials.js';
import { getSession } from '../../functions/api/get-session.js';
import { getTask } from '../../functions/api/get-task.js';
import { health } from '../../functions/api/health.js';
import { listApiKeys } from '../../functions/api/list-api-keys.js';
import { listTasks } from '../../functions/api/list-tasks.js';
import { methodNotAllowed } from '../../functions/api/method-not-allowed.js';
import { openapi } from '../../functions/api/openapi.js';
import { putCredentials } from '../../functions/api/put-credentials.js';
import { revokeApiKey } from '../../functions/api/revoke-api-key.js';
import type { z } from 'zod';
import type { Deps } from '../deps.js';
import { apiHandler, type ApiDefinition, type ApiLambda } from '../http/api-handler.js';

/** The API handlers by route-table name, wired to the local runtime's deps instead of the Lambda's. */
export function apiHandlers(getDeps: () => Deps): Record<string, ApiLambda> {
  // The very definitions the Lambda handlers of functions/api wrap.
  const wrap = <S extends z.ZodType | undefined>(def: ApiDefinition<S>): [string, ApiLambda] => [
    def.name,
    apiHandler(def, getDeps),
  ];
  return Object.fromEntries([
    wrap(health),
    wrap(openapi),
    wrap(createTask),
    wrap(listTasks),
    wrap(getTask),
    wrap(cancelTask),
    wrap(getSession),
    wrap(putCredentials),
    wrap(getCredentials),
    wrap(deleteCredentials),
    wrap(createDesign),
    wrap(createApiKey),
    wrap(listApiKeys),
    wrap(revokeApiKey),
    wrap(methodNotAllowed),
  ]);
}
