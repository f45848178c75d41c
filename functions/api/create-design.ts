import { apiHandler } from '../../lib/http/api-handler.js';
import { ValidationError } from '../../lib/errors.js';
import { DesignBody, isExtractorName, resolveExtractors } from '../../lib/tasks/schemas.js';
import { submitDesignTask } from '../../lib/tasks/submit.js';
import { EXTRACTORS } from '../../lib/tasks/model.js';

/** Serves both POST /v1/design/extract and the path-scoped alias /v1/design/extract/{extractor}. */
export const handler = apiHandler({
  name: 'create-design',
  auth: 'apiKey',
  body: DesignBody,
  handle: async ({ pathParameters, body, auth, log }, deps) => {
    const pathExtractor = pathParameters.extractor;
    let extractors;
    if (pathExtractor !== undefined) {
      if (!isExtractorName(pathExtractor)) {
        throw new ValidationError(`Unknown extractor "${pathExtractor}"; expected one of: ${EXTRACTORS.join(', ')}`);
      }
      extractors = [pathExtractor]; // the path wins over a body `extractors`
    } else {
      extractors = resolveExtractors(body.extractors);
      if (extractors.length === 0) {
        throw new ValidationError(`No valid extractor names; expected any of: ${EXTRACTORS.join(', ')}`);
      }
    }
    const enableIpRotation = body.enableIpRotation ?? false;
    const submitted = await submitDesignTask(
      deps,
      auth,
      { endUserId: body.endUserId, design: { url: body.url, extractors, enableIpRotation } },
      log,
    );
    return { statusCode: 202, body: { ...submitted, extractors, enableIpRotation } };
  },
});
