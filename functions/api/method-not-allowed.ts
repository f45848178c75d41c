import { MethodNotAllowedError, NotFoundError } from '../../lib/errors.js';
import { apiHandler, defineApi } from '../../lib/http/api-handler.js';
import { matchRoute } from '../../lib/http/routes.js';
import { lambdaDeps } from '../lambda-deps.js';

/**
 * API Gateway's `$default` route: a known path with the wrong verb is a 405 with Allow;
 * anything else is a 404. The local server sends unmatched requests here too.
 */
export const methodNotAllowed = defineApi({
  name: 'method-not-allowed',
  auth: 'none',
  handle: async ({ method, path }) => {
    const m = matchRoute(method, path);
    throw m.kind === 'wrong-method'
      ? new MethodNotAllowedError(m.allowed)
      : new NotFoundError(`No route for ${method} ${path}`);
  },
});

export const handler = apiHandler(methodNotAllowed, lambdaDeps);
