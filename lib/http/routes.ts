/**
 * The route table: one entry per endpoint, naming the Lambda handler module in
 * functions/api/. The local dev server routes with it and the CDK stack creates one
 * function and one API Gateway route per entry from it.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway route path, with `{param}` placeholders. */
  path: string;
  /** File name (without extension) under functions/api/. */
  handler: string;
  /** Which capability's resources the handler touches: drives least-privilege grants. */
  uses: ReadonlyArray<RouteResource>;
}

export type RouteResource =
  | 'tasks:read'
  | 'tasks:write'
  | 'sessions:read'
  | 'sessions:write'
  | 'apiKeys:read'
  | 'apiKeys:write'
  | 'endUsers:read'
  | 'endUsers:write'
  | 'usage:write'
  | 'businesses:read'
  | 'businesses:write'
  | 'activity:read'
  | 'activity:write'
  | 'agentQueue:send'
  | 'designQueue:send'
  | 'kms:encrypt'
  | 'assets:read';

/**
 * Every API-key route authenticates: it reads the key and counts the request (rate limit,
 * lastUsedAt) in the Activity table. It never writes the ApiKeys table.
 */
const AUTH: RouteResource[] = ['apiKeys:read', 'activity:write'];

export const ROUTES: readonly RouteDefinition[] = [
  { method: 'GET', path: '/health', handler: 'health', uses: [] },
  { method: 'GET', path: '/v1/openapi.json', handler: 'openapi', uses: [] },
  {
    method: 'POST',
    path: '/v1/tasks',
    handler: 'create-task',
    uses: [
      ...AUTH,
      'tasks:write',
      'tasks:read',
      'sessions:write',
      'sessions:read',
      'usage:write',
      'businesses:read',
      'agentQueue:send',
    ],
  },
  { method: 'GET', path: '/v1/tasks', handler: 'list-tasks', uses: [...AUTH, 'sessions:read', 'tasks:read'] },
  { method: 'GET', path: '/v1/tasks/{taskId}', handler: 'get-task', uses: [...AUTH, 'tasks:read', 'assets:read'] },
  {
    method: 'POST',
    path: '/v1/tasks/{taskId}/cancel',
    handler: 'cancel-task',
    uses: [...AUTH, 'tasks:read', 'tasks:write'],
  },
  {
    method: 'GET',
    path: '/v1/sessions/{sessionId}',
    handler: 'get-session',
    uses: [...AUTH, 'sessions:read', 'tasks:read', 'assets:read'],
  },
  {
    method: 'PUT',
    path: '/v1/end-users/{endUserId}/credentials',
    handler: 'put-credentials',
    uses: [...AUTH, 'endUsers:write', 'kms:encrypt'],
  },
  {
    method: 'GET',
    path: '/v1/end-users/{endUserId}/credentials',
    handler: 'get-credentials',
    uses: [...AUTH, 'endUsers:read'],
  },
  {
    method: 'DELETE',
    path: '/v1/end-users/{endUserId}/credentials',
    handler: 'delete-credentials',
    uses: [...AUTH, 'endUsers:write'],
  },
  {
    method: 'POST',
    path: '/v1/design/extract',
    handler: 'create-design',
    uses: [...AUTH, 'tasks:write', 'sessions:write', 'usage:write', 'businesses:read', 'designQueue:send'],
  },
  {
    method: 'POST',
    path: '/v1/design/extract/{extractor}',
    handler: 'create-design',
    uses: [...AUTH, 'tasks:write', 'sessions:write', 'usage:write', 'businesses:read', 'designQueue:send'],
  },
  {
    method: 'POST',
    path: '/v1/api-keys',
    handler: 'create-api-key',
    uses: ['apiKeys:write', 'businesses:write', 'businesses:read'],
  },
  { method: 'GET', path: '/v1/api-keys', handler: 'list-api-keys', uses: ['apiKeys:read', 'activity:read'] },
  {
    method: 'DELETE',
    path: '/v1/api-keys/{keyId}',
    handler: 'revoke-api-key',
    uses: ['apiKeys:read', 'apiKeys:write'],
  },
];

interface CompiledRoute {
  route: RouteDefinition;
  regex: RegExp;
  params: string[];
}

const compiled: CompiledRoute[] = ROUTES.map((route) => {
  const params: string[] = [];
  const pattern = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, regex: new RegExp(`^${pattern}/?$`), params };
});

export type RouteMatch =
  | { kind: 'found'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'wrong-method'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

/** Matches a request path; a path that exists under other verbs is a 405, not a 404. */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: HttpMethod[] = [];
  for (const c of compiled) {
    const m = c.regex.exec(path);
    if (!m) continue;
    if (c.route.method === method.toUpperCase()) {
      const pathParameters: Record<string, string> = {};
      c.params.forEach((name, i) => {
        pathParameters[name] = m[i + 1] ?? '';
      });
      return { kind: 'found', route: c.route, pathParameters };
    }
    allowed.push(c.route.method);
  }
  return allowed.length ? { kind: 'wrong-method', allowed: [...new Set(allowed)] } : { kind: 'not-found' };
}
