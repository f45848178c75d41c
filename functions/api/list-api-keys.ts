import { apiHandler } from '../../lib/http/api-handler.js';
import { listApiKeys } from '../../lib/keys/use-cases.js';

export const handler = apiHandler({
  name: 'list-api-keys',
  auth: 'dashboard',
  handle: async ({ auth }, deps) => ({ statusCode: 200, body: { keys: await listApiKeys(deps, auth.businessId) } }),
});
