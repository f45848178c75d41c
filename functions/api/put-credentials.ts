import { PutCredentialsBody } from '../../lib/credentials/schemas.js';
import { putCredentials as storeCredentials } from '../../lib/credentials/use-cases.js';
import { apiHandler, defineApi, param } from '../../lib/http/api-handler.js';
import { EndUserIdSchema } from '../../lib/validation.js';
import { lambdaDeps } from '../lambda-deps.js';

export const putCredentials = defineApi({
  name: 'put-credentials',
  auth: 'apiKey',
  body: PutCredentialsBody,
  handle: async ({ pathParameters, body, auth }, deps) => {
    await storeCredentials(deps, auth, { endUserId: param(EndUserIdSchema, pathParameters.endUserId), values: body });
    return { statusCode: 200, body: { ok: true } };
  },
});

export const handler = apiHandler(putCredentials, lambdaDeps);
