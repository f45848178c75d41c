import { apiHandler, defineApi, param } from '../../lib/http/api-handler.js';
import { ListLimitQuery } from '../../lib/tasks/schemas.js';
import { listSessions } from '../../lib/tasks/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

export const listTasks = defineApi({
  name: 'list-tasks',
  auth: 'apiKey',
  handle: async ({ query, auth }, deps) => ({
    statusCode: 200,
    body: { sessions: await listSessions(deps, auth, { limit: param(ListLimitQuery, query.limit) }) },
  }),
});

export const handler = apiHandler(listTasks, lambdaDeps);
