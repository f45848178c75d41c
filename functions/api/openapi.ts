import { apiHandler, defineApi } from '../../lib/http/api-handler.js';
import { openApiDocument } from '../../lib/http/openapi.js';
import { lambdaDeps } from '../lambda-deps.js';

/** The API's own OpenAPI document; public, so tools and clients can discover the API. */
export const openapi = defineApi({
  name: 'openapi',
  auth: 'none',
  handle: async () => ({
    statusCode: 200,
    body: openApiDocument(),
    headers: { 'cache-control': 'public, max-age=300' },
  }),
});

export const handler = apiHandler(openapi, lambdaDeps);
