import { credentialStatus } from '../../lib/credentials/use-cases.js';
import { apiHandler, defineApi, param } from '../../lib/http/api-handler.js';
import { EndUserIdSchema } from '../../lib/validation.js';
import { lambdaDeps } from '../lambda-deps.js';

export const getCredentials = defineApi({
  name: 'get-credentials',
  auth: 'apiKey',
  handle: async ({ pathParameters, auth }, deps) => ({
    statusCode: 200,
    body: await credentialStatus(deps, auth, { endUserId: param(EndUserIdSchema, pathParameters.endUserId) }),
  }),
});

export const handler = apiHandler(getCredentials, lambdaDeps);
