import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument, type JsonSchema, type OpenApiDocument } from '../../lib/http/openapi.js';
import { matchRoute } from '../../lib/http/routes.js';

/**
 * Holds every response the test runtime receives to the OpenAPI document: the status must
 * be documented for the operation (path template + method), the body must validate
 * against that status's schema, and every response carries x-request-id. Objects are
 * checked closed: the document leaves them open for clients (fields may be added), but a
 * field the server sends and the document does not name is a drift we want to see.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const BASE = 'urn:bts:openapi';

/** `METHOD /path/{template} status` of every response seen by this test file. */
const observed = new Set<string>();

export class ContractError extends Error {}

function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/components/schemas/', `${BASE}#/$defs/`);
    else out[k] = closeObjects(v);
  }
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

interface Contract {
  doc: OpenApiDocument;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}
let contract: Contract | undefined;

function load(): Contract {
  if (contract) return contract;
  const doc = buildOpenApiDocument();
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  ajv.addSchema({ $id: BASE, $defs: closeObjects(doc.components.schemas) });
  contract = { doc, ajv, validators: new Map() };
  return contract;
}

function validatorFor(key: string, schema: unknown): ValidateFunction {
  const c = load();
  let v = c.validators.get(key);
  if (!v) {
    v = c.ajv.compile(closeObjects(schema) as JsonSchema);
    c.validators.set(key, v);
  }
  return v;
}

type ResponseObject = { content?: { 'application/json'?: { schema?: unknown } } };

/** The documented response for a request, or why there is none. */
function documented(method: string, pathname: string, status: number): { key: string; response?: ResponseObject } {
  const { doc } = load();
  const m = matchRoute(method, pathname);
  if (m.kind === 'wrong-method') {
    if (status !== 405) throw new ContractError(`${method} ${pathname}: a wrong verb must answer 405, got ${status}`);
    return { key: 'MethodNotAllowed', response: doc.components.responses.MethodNotAllowed as ResponseObject };
  }
  if (m.kind === 'not-found') {
    if (status !== 404)
      throw new ContractError(`${method} ${pathname}: an unknown path must answer 404, got ${status}`);
    return { key: 'UnknownRoute', response: doc.components.responses.UnknownRoute as ResponseObject };
  }
  const op = `${m.route.method} ${m.route.path}`;
  const responses = doc.paths[m.route.path]?.[m.route.method.toLowerCase()]?.responses as
    Record<string, ResponseObject> | undefined;
  return { key: `${op} ${status}`, response: responses?.[String(status)] };
}

/** Throws a ContractError naming the operation, status and schema errors on any mismatch. */
export function checkResponse(
  method: string,
  url: string,
  res: { status: number; headers: Headers; text: string },
): void {
  const pathname = new URL(url).pathname;
  const { key, response } = documented(method.toUpperCase(), pathname, res.status);
  if (!response)
    throw new ContractError(`${key}: status not documented in the OpenAPI document (body: ${res.text.slice(0, 300)})`);
  if (!res.headers.get('x-request-id')) throw new ContractError(`${key}: response without x-request-id`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new ContractError(`${key}: no application/json schema documented`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new ContractError(`${key}: body is not JSON: ${res.text.slice(0, 200)}`);
  }
  const validate = validatorFor(key, schema);
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    throw new ContractError(
      `${key}: body does not match the document:\n  ${errors.join('\n  ')}\nbody: ${res.text.slice(0, 500)}`,
    );
  }
  observed.add(key);
}

/** Every documented `METHOD path status` (and shared response) this test file has not yet received. */
export function unobservedResponses(): string[] {
  const { doc } = load();
  const missing: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      for (const status of Object.keys(op.responses as Record<string, unknown>)) {
        const key = `${method.toUpperCase()} ${path} ${status}`;
        if (!observed.has(key)) missing.push(key);
      }
    }
  }
  for (const name of Object.keys(doc.components.responses)) if (!observed.has(name)) missing.push(name);
  return missing;
}
