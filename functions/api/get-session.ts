import { apiHandler, defineApi, param } from '../../lib/http/api-handler.js';
import { idParam } from '../../lib/validation.js';
import { getSession as readSession } from '../../lib/tasks/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

export const getSession = defineApi({
  name: 'get-session',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => ({
    statusCode: 200,
    body: await readSession(deps, auth, { sessionId: param(idParam('sessionId'), pathParameters.sessionId) }),
  }),
});

export const handler = apiHandler(getSession, lambdaDeps);
