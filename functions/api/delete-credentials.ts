import { DeleteCredentialsBody } from '../../lib/credentials/schemas.js';
import { deleteCredentials as clearCredentials } from '../../lib/credentials/use-cases.js';
import { apiHandler, defineApi, param } from '../../lib/http/api-handler.js';
import { EndUserIdSchema } from '../../lib/validation.js';
import { lambdaDeps } from '../lambda-deps.js';

export const deleteCredentials = defineApi({
  name: 'delete-credentials',
  auth: 'apiKey',
  body: DeleteCredentialsBody,
  bodyOptional: true,
  handle: async ({ pathParameters, body, auth }, deps) => {
    await clearCredentials(deps, auth, {
      endUserId: param(EndUserIdSchema, pathParameters.endUserId),
      fields: body?.fields,
    });
    return { statusCode: 200, body: { ok: true } };
  },
});

export const handler = apiHandler(deleteCredentials, lambdaDeps);
