import { apiHandler, defineApi } from '../../lib/http/api-handler.js';
import { getTask as readTask } from '../../lib/tasks/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

export const getTask = defineApi({
  name: 'get-task',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => ({
    statusCode: 200,
    body: await readTask(deps, auth, { taskId: pathParameters.taskId ?? '' }),
  }),
});

export const handler = apiHandler(getTask, lambdaDeps);
