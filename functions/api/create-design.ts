import { DesignBody } from '../../lib/design/schemas.js';
import { submitDesignExtraction } from '../../lib/design/use-cases.js';
import { apiHandler, defineApi } from '../../lib/http/api-handler.js';
import { lambdaDeps } from '../lambda-deps.js';

/** Serves both POST /v1/design/extract and the path-scoped alias /v1/design/extract/{extractor}. */
export const createDesign = defineApi({
  name: 'create-design',
  auth: 'apiKey',
  body: DesignBody,
  handle: async ({ pathParameters, body, auth }, deps) => ({
    statusCode: 202,
    body: await submitDesignExtraction(deps, auth, { ...body, pathExtractor: pathParameters.extractor }),
  }),
});

export const handler = apiHandler(createDesign, lambdaDeps);
