import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../auth-context.js';
import { authenticateApiKey, authenticateDashboard } from '../auth/use-cases.js';
import type { Deps } from '../deps.js';
import { AppError, describeError, PayloadTooLargeError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { formatIssues, MAX_JSON_DEPTH, nestsDeeperThan } from '../validation.js';
import { httpStatusOf } from './error-status.js';

export type Event = APIGatewayProxyEventV2;
export type Result = APIGatewayProxyStructuredResultV2;

export interface ApiRequest<B> {
  method: string;
  path: string;
  body: B;
  pathParameters: Record<string, string>;
  query: Record<string, string>;
  auth: AuthContext;
  requestId: string;
}

export interface ApiResponse {
  statusCode: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Per-invocation state the middlewares hand to each other. */
interface ApiContext extends Context {
  bts: { deps: Deps; requestId: string; log: Logger; started: number; auth?: AuthContext; body?: unknown };
}

export const MAX_BODY_BYTES = 1024 * 1024;

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): Result {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** An error as the caller sees it: exposed errors say what went wrong, the rest a generic 500 with the request id. */
function errorResponse(err: unknown, requestId: string, log: Logger): Result {
  const status = httpStatusOf(err);
  if (err instanceof AppError && err.expose) {
    if (status >= 500) log.error('request failed', { error: err.message, cause: describeError(err.cause) });
    return json(status, { error: err.message, ...err.details, ...(status >= 500 ? { requestId } : {}) }, err.headers);
  }
  log.error('unhandled error', {
    error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
  });
  return json(500, { error: `Internal server error (request id ${requestId})`, requestId });
}

/** Request id, structured access log, and the one place errors become responses. */
function httpEnvelope(name: string, getDeps: () => Deps): MiddlewareObj<Event, Result, Error, ApiContext> {
  const finish = (request: { response: Result | undefined | null; context: ApiContext; event: Event }) => {
    const { bts } = request.context;
    const res = request.response ?? json(500, { error: 'Empty response' });
    res.headers = { ...res.headers, 'x-request-id': bts.requestId };
    request.response = res;
    bts.log.info('request', {
      handler: name,
      method: request.event.requestContext?.http?.method,
      path: request.event.rawPath,
      statusCode: res.statusCode,
      durationMs: Date.now() - bts.started,
    });
  };
  return {
    before: (request) => {
      const requestId = request.event.requestContext?.requestId || randomUUID();
      const deps = getDeps();
      const log = deps.logger.createChild({ persistentKeys: { requestId } });
      // Use cases log through `deps.logger`: inside a request that is the request's own logger.
      request.context.bts = { deps: { ...deps, logger: log }, requestId, started: Date.now(), log };
    },
    after: finish,
    onError: (request) => {
      const { bts } = request.context;
      request.response = errorResponse(request.error, bts.requestId, bts.log);
      finish(request);
    },
  };
}

function authentication(mode: 'apiKey' | 'dashboard' | 'none'): MiddlewareObj<Event, Result, Error, ApiContext> {
  return {
    before: async (request) => {
      if (mode === 'none') return;
      const header = request.event.headers?.authorization ?? request.event.headers?.Authorization;
      const { deps } = request.context.bts;
      const auth =
        mode === 'apiKey' ? await authenticateApiKey(deps, header) : await authenticateDashboard(deps, header);
      request.context.bts.auth = auth;
      request.context.bts.log.appendPersistentKeys({ businessId: auth.businessId });
    },
  };
}

/** JSON body: size limit, Content-Type, parse, then zod. */
function jsonBody(schema: z.ZodType, opts: { optional: boolean }): MiddlewareObj<Event, Result, Error, ApiContext> {
  return {
    before: (request) => {
      const { event } = request;
      let raw = event.body ?? '';
      if (event.isBase64Encoded && raw) raw = Buffer.from(raw, 'base64').toString('utf8');
      if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
      let parsed: unknown = undefined;
      if (raw.trim() === '') {
        if (!opts.optional) throw new ValidationError('Request body is required (a JSON object)');
      } else {
        const type = event.headers?.['content-type'] ?? event.headers?.['Content-Type'] ?? '';
        if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type.trim())) {
          throw new ValidationError('Content-Type must be application/json');
        }
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new ValidationError('Request body is not valid JSON');
        }
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
          throw new ValidationError('Request body must be a JSON object');
        }
        if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) {
          throw new ValidationError(`Request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`);
        }
      }
      const result = schema.safeParse(parsed);
      if (!result.success) throw new ValidationError(formatIssues(result.error.issues));
      request.context.bts.body = result.data;
    },
  };
}

/** A path or query parameter through the same zod rules as bodies; a mismatch is a 400. */
export function param<T extends z.ZodType>(schema: T, value: string | undefined): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ValidationError(formatIssues(r.error.issues));
  return r.data;
}

/** One endpoint: its auth mode, body schema and the use case it runs. Status codes are decided here, never in use cases. */
export interface ApiDefinition<S extends z.ZodType | undefined = undefined> {
  name: string;
  auth: 'apiKey' | 'dashboard' | 'none';
  body?: S;
  /** A body may be absent (DELETE credentials). */
  bodyOptional?: boolean;
  handle: (req: ApiRequest<S extends z.ZodType ? z.infer<S> : undefined>, deps: Deps) => Promise<ApiResponse>;
}

/** Keeps a definition's body type precise; the route table and CDK name it by `name`. */
export function defineApi<S extends z.ZodType | undefined = undefined>(def: ApiDefinition<S>): ApiDefinition<S> {
  return def;
}

export type ApiLambda = (event: Event, context: Context) => Promise<Result>;

/**
 * An endpoint as an API Gateway v2 Lambda handler. `getDeps` is the one seam: Lambda
 * entry points pass the container's memoised deps, the local runtime its own.
 */
export function apiHandler<S extends z.ZodType | undefined>(def: ApiDefinition<S>, getDeps: () => Deps): ApiLambda {
  const chain = middy<Event, Result, Error, ApiContext>()
    .use(httpEnvelope(def.name, getDeps))
    .use(authentication(def.auth));
  if (def.body) chain.use(jsonBody(def.body, { optional: Boolean(def.bodyOptional) }));
  const middified = chain.handler(async (event, context) => {
    const { bts } = context;
    const res = await def.handle(
      {
        method: event.requestContext?.http?.method ?? 'GET',
        path: event.rawPath ?? '/',
        body: bts.body as S extends z.ZodType ? z.infer<S> : undefined,
        pathParameters: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
        auth: bts.auth ?? { businessId: '' },
        requestId: bts.requestId,
      },
      bts.deps,
    );
    return json(res.statusCode, res.body ?? {}, res.headers);
  });
  // Lambda hands us a plain context; the envelope middleware adds `bts` to it before use.
  return (event, context) => middified(event, context as ApiContext);
}
