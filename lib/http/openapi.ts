import * as z from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { CredentialStatusSchema, DeleteCredentialsBody, PutCredentialsBody } from '../credentials/schemas.js';
import { DesignBody, DesignSubmittedSchema } from '../design/schemas.js';
import { CreateApiKeyBody, CreatedKeySchema, KeyListSchema, KeyViewSchema } from '../keys/schemas.js';
import * as design from '../tasks/design-result.js';
import * as tasks from '../tasks/schemas.js';
import { OPERATIONS, type AuthMode, type OperationSpec, type ResponseSpec } from './openapi-operations.js';
import { ROUTES, type RouteDefinition } from './routes.js';
import { ErrorSchema, OkSchema, QuotaErrorSchema, ServerErrorSchema } from './schemas.js';

/**
 * The OpenAPI 3.1 document of the REST API, generated from ROUTES, the operation table
 * beside it and the zod schemas the handlers validate with and the use cases return.
 * `npm run openapi` writes it to docs/openapi.json; GET /v1/openapi.json serves it.
 */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  servers: Record<string, unknown>[];
  tags: { name: string; description: string }[];
  security: never[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, Record<string, unknown>>;
    headers: Record<string, Record<string, unknown>>;
    responses: Record<string, Record<string, unknown>>;
  };
}

/** Named schemas: referenced as #/components/schemas/<name> wherever they appear. */
const COMPONENTS: Record<string, z.ZodType> = {
  ErrorBody: ErrorSchema,
  QuotaErrorBody: QuotaErrorSchema,
  ServerErrorBody: ServerErrorSchema,
  Ok: OkSchema,
  CreateTaskRequest: tasks.CreateTaskBody,
  Submitted: tasks.SubmittedSchema,
  TaskStatus: tasks.TaskStatusSchema,
  StepSummary: tasks.StepSummarySchema,
  TaskUsage: tasks.TaskUsageSchema,
  TaskView: tasks.TaskViewSchema,
  CancelledTask: tasks.CancelledTaskSchema,
  SessionSummary: tasks.SessionSummarySchema,
  SessionList: tasks.SessionListSchema,
  Session: tasks.SessionSchema,
  DesignExtractRequest: DesignBody,
  DesignSubmitted: DesignSubmittedSchema,
  ExtractorName: design.ExtractorNameSchema,
  DesignResult: design.DesignResultSchema,
  DesignResults: design.DesignResultsSchema,
  ExtractorFailure: design.ExtractorFailureSchema,
  ImageEntry: design.ImageEntrySchema,
  FontEntry: design.FontEntrySchema,
  PaletteColor: design.PaletteColorSchema,
  ContrastIssue: design.ContrastIssueSchema,
  IconEntry: design.IconEntrySchema,
  TokensResult: design.TokensResultSchema,
  LogoResult: design.LogoResultSchema,
  PutCredentialsRequest: PutCredentialsBody,
  DeleteCredentialsRequest: DeleteCredentialsBody,
  CredentialStatus: CredentialStatusSchema,
  CreateApiKeyRequest: CreateApiKeyBody,
  CreatedKey: CreatedKeySchema,
  KeyView: KeyViewSchema,
  KeyList: KeyListSchema,
};

const SECURITY: Record<Exclude<AuthMode, 'none'>, string> = { apiKey: 'apiKey', dashboard: 'dashboardToken' };

const TAGS = [
  { name: 'tasks', description: 'Agent tasks: submit, read, list, cancel' },
  { name: 'sessions', description: 'Multi-turn conversations' },
  { name: 'credentials', description: 'Per-end-user platform cookies (write-only secrets)' },
  { name: 'design', description: 'Design extraction: images, fonts, colors, icons, tokens, logo' },
  { name: 'api-keys', description: 'Dashboard-only key management' },
  { name: 'service', description: 'Health and this document' },
];

const DESCRIPTION = [
  'Runs browser agents and design extractions for the end-users of a business.',
  '',
  'Submissions answer at once with status `pending`; poll `GET /v1/tasks/{taskId}` (every 2 s is recommended)',
  'until the status is `completed`, `failed` or `cancelled`. Every error body is `{ "error": string }`; a 429',
  'also carries `limit` and `used`, a 5xx the `requestId`. Every response has an `x-request-id` header.',
  'A wrong verb on a known path answers 405 with `Allow`; an unknown path 404.',
  '',
  'Data-plane routes take `Authorization: Bearer <API key>`; `/v1/api-keys` takes a dashboard session token.',
].join('\n');

/** zod spells "any safe integer" as explicit bounds; the document is easier to read without them. */
function dropSafeIntegerBounds(ctx: { jsonSchema: JsonSchema }): void {
  const s = ctx.jsonSchema;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
}

const withoutDialect = ({ $schema: _s, $id: _i, ...rest }: JsonSchema): JsonSchema => rest;

function buildComponents(): { schemas: Record<string, JsonSchema>; ref: (s: z.ZodType) => JsonSchema } {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [id, schema] of Object.entries(COMPONENTS)) {
    registry.add(schema, { id });
    names.set(schema, id);
  }
  const uri = (id: string) => `#/components/schemas/${id}`;
  // Input side: objects stay open (unknown request keys are ignored; responses may grow).
  const generated = z.toJSONSchema(registry, { io: 'input', uri, override: dropSafeIntegerBounds });
  const schemas = Object.fromEntries(
    Object.entries(generated.schemas).map(([id, s]) => [id, withoutDialect(s as JsonSchema)]),
  );
  const ref = (schema: z.ZodType): JsonSchema => {
    const id = names.get(schema);
    if (id) return { $ref: uri(id) };
    return withoutDialect(z.toJSONSchema(schema, { io: 'input', override: dropSafeIntegerBounds }) as JsonSchema);
  };
  return { schemas, ref };
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

function response(spec: ResponseSpec, ref: (s: z.ZodType) => JsonSchema): Record<string, unknown> {
  const headers: Record<string, unknown> = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
  for (const [name, description] of Object.entries(spec.headers ?? {}))
    headers[name] = { description, schema: { type: 'string' } };
  return { description: spec.description, headers, content: json(ref(spec.schema)) };
}

function operation(
  route: RouteDefinition,
  spec: OperationSpec,
  ref: (s: z.ZodType) => JsonSchema,
): Record<string, unknown> {
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
  const unknown = Object.keys(spec.pathParams ?? {}).filter((n) => !pathNames.includes(n));
  if (unknown.length)
    throw new Error(`${route.method} ${route.path}: path parameters ${unknown.join(', ')} are not in the path`);
  const parameters = [
    ...pathNames.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: ref(spec.pathParams?.[name] ?? z.string()),
    })),
    ...Object.entries(spec.query ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: false,
      schema: ref(schema),
    })),
  ];
  const op: Record<string, unknown> = {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    security: spec.auth === 'none' ? [] : [{ [SECURITY[spec.auth]]: [] }],
  };
  if (parameters.length) op.parameters = parameters;
  if (spec.body) op.requestBody = { required: spec.body.required, content: json(ref(spec.body.schema)) };
  op.responses = Object.fromEntries(
    Object.entries(spec.responses)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, r]) => [status, response(r, ref)]),
  );
  return op;
}

/** The document; throws when a route has no entry in OPERATIONS or an entry names no route. */
export function buildOpenApiDocument(
  routes: readonly RouteDefinition[] = ROUTES,
  operations: Readonly<Record<string, OperationSpec>> = OPERATIONS,
): OpenApiDocument {
  const keys = new Set(routes.map((r) => `${r.method} ${r.path}`));
  const orphans = Object.keys(operations).filter((k) => !keys.has(k));
  if (orphans.length) throw new Error(`OPERATIONS names routes that do not exist: ${orphans.join(', ')}`);
  const { schemas, ref } = buildComponents();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const spec = operations[`${route.method} ${route.path}`];
    if (!spec)
      throw new Error(
        `No OpenAPI operation for ${route.method} ${route.path}: add it to lib/http/openapi-operations.ts`,
      );
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, spec, ref);
  }
  const errorContent = json({ $ref: '#/components/schemas/ErrorBody' });
  return {
    openapi: '3.1.0',
    info: { title: 'Browser Task Service API', version: pkg.version, description: DESCRIPTION },
    servers: [
      {
        url: 'http://127.0.0.1:{port}',
        description: 'The local runtime (npm start)',
        variables: { port: { default: '3000' } },
      },
      {
        url: '{apiUrl}',
        description: 'A CDK deployment: the ApiUrl stack output',
        variables: { apiUrl: { default: 'https://api.example.com' } },
      },
    ],
    tags: TAGS,
    security: [],
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'bts_live_…',
          description: 'An API key of the business. Revoked keys answer 403.',
        },
        dashboardToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A dashboard session token (Cognito ID token in AWS, locally signed in the local runtime); only /v1/api-keys takes it.',
        },
      },
      headers: {
        RequestId: { description: 'Identifies the request in logs; quote it to support', schema: { type: 'string' } },
      },
      responses: {
        MethodNotAllowed: {
          description: 'A known path asked with a verb it does not serve (any path of this document)',
          headers: { allow: { description: 'The verbs the path serves', schema: { type: 'string' } } },
          content: errorContent,
        },
        UnknownRoute: { description: 'A path this document does not list', content: errorContent },
      },
    },
  };
}

let cached: OpenApiDocument | undefined;

/** Built once per process: the schemas do not change while it runs. */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}
