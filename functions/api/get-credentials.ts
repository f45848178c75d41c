import { apiHandler } from '../../lib/http/api-handler.js';
import { EndUserIdSchema, pathParam } from '../../lib/http/validation.js';
import { credentialStatus } from '../../lib/credentials/use-cases.js';

export const handler = apiHandler({
  name: 'get-credentials',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => ({
    statusCode: 200,
    body: await credentialStatus(deps, auth, pathParam(EndUserIdSchema, pathParameters.endUserId)),
  }),
});
