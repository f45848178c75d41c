import { apiHandler, defineApi } from '../../lib/http/api-handler.js';
import { CreateTaskBody, effectiveMaxSteps } from '../../lib/tasks/schemas.js';
import { submitAgentTask } from '../../lib/tasks/use-cases.js';
import { lambdaDeps } from '../lambda-deps.js';

export const createTask = defineApi({
  name: 'create-task',
  auth: 'apiKey',
  body: CreateTaskBody,
  handle: async ({ body, auth }, deps) => {
    const submitted = await submitAgentTask(deps, auth, {
      endUserId: body.endUserId,
      task:
        body.task ??
        `Look up ${body.lookup?.site}/${body.lookup?.operation} ${JSON.stringify(body.lookup?.params ?? {})}`,
      sessionId: body.sessionId,
      agent: {
        ...(body.lookup ? { lookup: body.lookup } : {}),
        startUrl: body.startUrl,
        schema: body.schema,
        maxSteps: effectiveMaxSteps(body.maxSteps),
        includeHtmlDump: body.include_html_dump ?? false,
      },
    });
    return { statusCode: 201, body: submitted };
  },
});

export const handler = apiHandler(createTask, lambdaDeps);
