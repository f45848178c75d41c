import { apiHandler } from '../../lib/http/api-handler.js';
import { EndUserIdSchema, pathParam } from '../../lib/http/validation.js';
import { DeleteCredentialsBody, deleteCredentials } from '../../lib/credentials/use-cases.js';

export const handler = apiHandler({
  name: 'delete-credentials',
  auth: 'apiKey',
  body: DeleteCredentialsBody,
  bodyOptional: true,
  handle: async ({ pathParameters, body, auth }, deps) => {
    await deleteCredentials(deps, auth, pathParam(EndUserIdSchema, pathParameters.endUserId), body?.fields);
    return { statusCode: 200, body: { ok: true } };
  },
});
