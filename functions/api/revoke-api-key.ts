import { apiHandler } from '../../lib/http/api-handler.js';
import { revokeApiKey } from '../../lib/keys/use-cases.js';

export const handler = apiHandler({
  name: 'revoke-api-key',
  auth: 'dashboard',
  handle: async ({ pathParameters, auth }, deps) => {
    await revokeApiKey(deps, auth.businessId, pathParameters.keyId ?? '');
    return { statusCode: 200, body: { ok: true } };
  },
});
