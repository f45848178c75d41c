import { apiHandler, defineApi, param } from '../../lib/http/api-handler.js';
import { idParam } from '../../lib/validation.js';
import { getTask as readTask } from '../../lib/tasks/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

export const getTask = defineApi({
  name: 'get-task',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => ({
    statusCode: 200,
    body: await readTask(deps, auth, { taskId: param(idParam('taskId'), pathParameters.taskId) }),
  }),
});

export const handler = apiHandler(getTask, lambdaDeps);
