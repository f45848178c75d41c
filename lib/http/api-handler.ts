import middy, { type MiddlewareObj } from '@middy/core';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { deps, type Deps } from '../deps.js';
import { logger } from '../logger.js';
import { authenticateApiKey, authenticateDashboard, type AuthContext } from '../auth/authenticate.js';
import { AppError, PayloadTooLargeError, ValidationError } from '../errors.js';
import { formatZodError } from './validation.js';

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
  log: Logger;
}

export interface ApiResponse {
  statusCode: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Per-invocation state the middlewares hand to each other. */
interface ApiContext extends Context {
  bts: { requestId: string; log: Logger; started: number; auth?: AuthContext; body?: unknown };
}

export const MAX_BODY_BYTES = 1024 * 1024;

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): Result {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** Request id, structured access log, and the one place errors become responses. */
export function httpEnvelope(name: string): MiddlewareObj<Event, Result, Error, ApiContext> {
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
      request.context.bts = {
        requestId,
        started: Date.now(),
        log: logger().createChild({ persistentKeys: { requestId } }),
      };
    },
    after: finish,
    onError: (request) => {
      const err = request.error;
      const { bts } = request.context;
      if (err instanceof AppError && err.expose) {
        const extra = { ...err.extra };
        const headers: Record<string, string> = {};
        if (Array.isArray(extra.allow)) {
          headers.allow = (extra.allow as string[]).join(', ');
          delete extra.allow;
        }
        if (err.statusCode >= 500) bts.log.error('request failed', { error: err.message, cause: String(err.cause) });
        request.response = json(err.statusCode, { error: err.message, ...extra, ...(err.statusCode >= 500 ? { requestId: bts.requestId } : {}) }, headers);
      } else {
        bts.log.error('unhandled error', { error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) });
        request.response = json(500, { error: `Internal server error (request id ${bts.requestId})`, requestId: bts.requestId });
      }
      finish(request);
    },
  };
}

export function authentication(mode: 'apiKey' | 'dashboard' | 'none'): MiddlewareObj<Event, Result, Error, ApiContext> {
  return {
    before: async (request) => {
      if (mode === 'none') return;
      const header = request.event.headers?.authorization ?? request.event.headers?.Authorization;
      const d = deps();
      const auth = mode === 'apiKey' ? await authenticateApiKey(d, header) : await authenticateDashboard(d, header);
      request.context.bts.auth = auth;
      request.context.bts.log.appendPersistentKeys({ businessId: auth.businessId });
    },
  };
}

/** JSON body: size limit, Content-Type, parse, then zod. */
export function jsonBody(schema: z.ZodType, opts: { optional: boolean }): MiddlewareObj<Event, Result, Error, ApiContext> {
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
      }
      const result = schema.safeParse(parsed);
      if (!result.success) throw new ValidationError(formatZodError(result.error));
      request.context.bts.body = result.data;
    },
  };
}

export interface HandlerOptions<S extends z.ZodType | undefined> {
  name: string;
  auth: 'apiKey' | 'dashboard' | 'none';
  body?: S;
  /** A body may be absent (DELETE credentials). */
  bodyOptional?: boolean;
  handle: (req: ApiRequest<S extends z.ZodType ? z.infer<S> : undefined>, deps: Deps) => Promise<ApiResponse>;
}

/** Wraps a use case as an API Gateway v2 Lambda handler. */
export function apiHandler<S extends z.ZodType | undefined = undefined>(opts: HandlerOptions<S>) {
  const chain = middy<Event, Result, Error, ApiContext>().use(httpEnvelope(opts.name)).use(authentication(opts.auth));
  if (opts.body) chain.use(jsonBody(opts.body, { optional: Boolean(opts.bodyOptional) }));
  const middified = chain.handler(async (event, context) => {
    const { bts } = context;
    const res = await opts.handle(
      {
        method: event.requestContext?.http?.method ?? 'GET',
        path: event.rawPath ?? '/',
        body: bts.body as S extends z.ZodType ? z.infer<S> : undefined,
        pathParameters: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
        auth: bts.auth ?? { businessId: '' },
        requestId: bts.requestId,
        log: bts.log,
      },
      deps(),
    );
    return json(res.statusCode, res.body ?? {}, res.headers);
  });
  // Lambda hands us a plain context; the envelope middleware adds `bts` to it before use.
  return (event: Event, context: Context): Promise<Result> => middified(event, context as ApiContext);
}
