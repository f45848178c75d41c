import { apiHandler } from '../../lib/http/api-handler.js';
import { getTask } from '../../lib/tasks/read.js';

export const handler = apiHandler({
  name: 'get-task',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => ({
    statusCode: 200,
    body: await getTask(deps, auth, pathParameters.taskId ?? ''),
  }),
});
