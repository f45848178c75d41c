import { apiHandler } from '../../lib/http/api-handler.js';
import { getSession } from '../../lib/tasks/read.js';

export const handler = apiHandler({
  name: 'get-session',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => ({
    statusCode: 200,
    body: await getSession(deps, auth, pathParameters.sessionId ?? ''),
  }),
});
