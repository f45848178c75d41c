import { apiHandler, defineApi, param } from '../../lib/http/api-handler.js';
import { idParam } from '../../lib/validation.js';
import { cancelTask as requestCancel } from '../../lib/tasks/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

/** 200 when a pending task is cancelled at once, 202 when a running one will stop at its next step. */
export const cancelTask = defineApi({
  name: 'cancel-task',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => {
    const { outcome, task } = await requestCancel(deps, auth, {
      taskId: param(idParam('taskId'), pathParameters.taskId),
    });
    return { statusCode: outcome === 'cancelled' ? 200 : 202, body: task };
  },
});

export const handler = apiHandler(cancelTask, lambdaDeps);
