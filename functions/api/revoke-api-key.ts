import { apiHandler, defineApi, param } from '../../lib/http/api-handler.js';
import { idParam } from '../../lib/validation.js';
import { revokeApiKey as revokeKey } from '../../lib/keys/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

export const revokeApiKey = defineApi({
  name: 'revoke-api-key',
  auth: 'dashboard',
  handle: async ({ pathParameters, auth }, deps) => {
    await revokeKey(deps, auth, { keyId: param(idParam('keyId'), pathParameters.keyId) });
    return { statusCode: 200, body: { ok: true } };
  },
});

export const handler = apiHandler(revokeApiKey, lambdaDeps);
