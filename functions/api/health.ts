import { apiHandler, defineApi } from '../../lib/http/api-handler.js';
import { lambdaDeps } from '../lambda-deps.js';

export const health = defineApi({
  name: 'health',
  auth: 'none',
  handle: async () => ({ statusCode: 200, body: { ok: true } }),
});

export const handler = apiHandler(health, lambdaDeps);
