import { apiHandler, defineApi } from '../../lib/http/api-handler.js';
import { CreateApiKeyBody } from '../../lib/keys/schemas.js';
import { createApiKey as mintKey } from '../../lib/keys/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

export const createApiKey = defineApi({
  name: 'create-api-key',
  auth: 'dashboard',
  body: CreateApiKeyBody,
  bodyOptional: true,
  handle: async ({ body, auth }, deps) => ({
    statusCode: 201,
    body: await mintKey(deps, auth, { label: body?.label }),
  }),
});

export const handler = apiHandler(createApiKey, lambdaDeps);
