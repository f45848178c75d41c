import { apiHandler } from '../../lib/http/api-handler.js';
import { EndUserIdSchema, pathParam } from '../../lib/http/validation.js';
import { PutCredentialsBody, putCredentials } from '../../lib/credentials/use-cases.js';

export const handler = apiHandler({
  name: 'put-credentials',
  auth: 'apiKey',
  body: PutCredentialsBody,
  handle: async ({ pathParameters, body, auth }, deps) => {
    await putCredentials(deps, auth, pathParam(EndUserIdSchema, pathParameters.endUserId), body);
    return { statusCode: 200, body: { ok: true } };
  },
});
