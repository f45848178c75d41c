import type { AuthContext } from '../auth-context.js';
import { ValidationError } from '../errors.js';
import { EXTRACTORS, type ExtractorName } from '../tasks/model.js';
import { submitDesignTask, type TaskDeps } from '../tasks/use-cases.js';
import { isExtractorName, resolveExtractors, type DesignInput, type DesignSubmitted } from './schemas.js';

export type { DesignSubmitted };

/**
 * POST /v1/design/extract[/{extractor}]: decides which extractors run (the path alias
 * wins over a body `extractors`), then submits the task in a fresh session.
 */
export async function submitDesignExtraction(
  deps: TaskDeps,
  auth: AuthContext,
  input: DesignInput & { pathExtractor?: string },
): Promise<DesignSubmitted> {
  let extractors: ExtractorName[];
  if (input.pathExtractor !== undefined) {
    if (!isExtractorName(input.pathExtractor)) {
      throw new ValidationError(
        `Unknown extractor "${input.pathExtractor}"; expected one of: ${EXTRACTORS.join(', ')}`,
      );
    }
    extractors = [input.pathExtractor];
  } else {
    extractors = resolveExtractors(input.extractors);
    if (extractors.length === 0)
      throw new ValidationError(`No valid extractor names; expected any of: ${EXTRACTORS.join(', ')}`);
  }
  const enableIpRotation = input.enableIpRotation ?? false;
  const submitted = await submitDesignTask(deps, auth, {
    endUserId: input.endUserId,
    design: { url: input.url, extractors, enableIpRotation },
  });
  return { ...submitted, extractors, enableIpRotation };
}
