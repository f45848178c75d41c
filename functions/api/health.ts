import { apiHandler } from '../../lib/http/api-handler.js';

export const handler = apiHandler({
  name: 'health',
  auth: 'none',
  handle: async () => ({ statusCode: 200, body: { ok: true } }),
});
