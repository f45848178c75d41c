import { apiHandler } from '../../lib/http/api-handler.js';
import { cancelTask } from '../../lib/tasks/read.js';

export const handler = apiHandler({
  name: 'cancel-task',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => cancelTask(deps, auth, pathParameters.taskId ?? ''),
});
