import { apiHandler, defineApi } from '../../lib/http/api-handler.js';
import { listApiKeys as listKeys } from '../../lib/keys/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

export const listApiKeys = defineApi({
  name: 'list-api-keys',
  auth: 'dashboard',
  handle: async ({ auth }, deps) => ({ statusCode: 200, body: { keys: await listKeys(deps, auth) } }),
});

export const handler = apiHandler(listApiKeys, lambdaDeps);
