import { apiHandler } from '../../lib/http/api-handler.js';
import { CreateTaskBody, effectiveMaxSteps } from '../../lib/tasks/schemas.js';
import { submitAgentTask } from '../../lib/tasks/submit.js';

export const handler = apiHandler({
  name: 'create-task',
  auth: 'apiKey',
  body: CreateTaskBody,
  handle: async ({ body, auth, log }, deps) => {
    const submitted = await submitAgentTask(
      deps,
      auth,
      {
        endUserId: body.endUserId,
        task: body.task,
        sessionId: body.sessionId,
        agent: {
          startUrl: body.startUrl,
          schema: body.schema,
          maxSteps: effectiveMaxSteps(body.maxSteps),
          includeHtmlDump: body.include_html_dump ?? false,
        },
      },
      log,
    );
    return { statusCode: 201, body: submitted };
  },
});
