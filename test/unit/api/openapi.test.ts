import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { ApiDefinition } from '../../../lib/http/api-handler.js';
import { buildOpenApiDocument } from '../../../lib/http/openapi.js';
import { OPERATIONS } from '../../../lib/http/openapi-operations.js';
import { ROUTES } from '../../../lib/http/routes.js';
import { CreateTaskBody } from '../../../lib/tasks/schemas.js';
import {
  CLIENT_TYPES,
  OPENAPI_JSON,
  REGENERATE,
  renderClientTypes,
  renderOpenApiJson,
  ROOT,
} from '../../../scripts/openapi-artifacts.js';

const doc = buildOpenApiDocument();
const committed = readFileSync(OPENAPI_JSON, 'utf8');

/** The definition a handler module exports (the object `defineApi` returned). */
async function definitionOf(handler: string): Promise<ApiDefinition<z.ZodType | undefined>> {
  const mod = (await import(join(ROOT, 'functions', 'api', `${handler}.ts`))) as Record<string, unknown>;
  const def = Object.values(mod).find(
    (v): v is ApiDefinition<z.ZodType | undefined> =>
      typeof v === 'object' && v !== null && (v as { name?: unknown }).name === handler,
  );
  if (!def) throw new Error(`functions/api/${handler}.ts exports no definition named ${handler}`);
  return def;
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(committed) as Record<string, unknown>);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it(`is committed as docs/openapi.json as generated (regenerate with \`${REGENERATE}\`)`, () => {
    expect(
      committed === renderOpenApiJson(doc),
      `docs/openapi.json is stale: run \`${REGENERATE}\` and commit the result`,
    ).toBe(true);
  });

  it(`has the client types generated from it (regenerate with \`${REGENERATE}\`)`, async () => {
    const fresh = await renderClientTypes(JSON.parse(committed) as object);
    expect(
      readFileSync(CLIENT_TYPES, 'utf8') === fresh,
      `clients/typescript/src/types.gen.ts is stale: run \`${REGENERATE}\``,
    ).toBe(true);
  });

  it.each(ROUTES.map((r) => ({ ...r })))('$method $path: body schema and auth are the handler’s own', async (route) => {
    // Prepare
    const spec = OPERATIONS[`${route.method} ${route.path}`];
    const def = await definitionOf(route.handler);
    // Assess: the very zod object the handler validates with, so a new field flows into the document.
    expect(spec?.body?.schema).toBe(def.body);
    expect(spec?.body?.required ?? false).toBe(Boolean(def.body) && !def.bodyOptional);
    expect(spec?.auth).toBe(def.auth);
    const op = doc.paths[route.path]?.[route.method.toLowerCase()];
    expect(op?.security).toEqual(
      def.auth === 'none' ? [] : [{ [def.auth === 'apiKey' ? 'apiKey' : 'dashboardToken']: [] }],
    );
  });

  it('documents every field of CreateTaskBody in CreateTaskRequest', () => {
    const component = doc.components.schemas.CreateTaskRequest as {
      properties: Record<string, unknown>;
      required: string[];
      anyOf: unknown;
    };
    expect(Object.keys(component.properties)).toEqual(Object.keys(CreateTaskBody.shape));
    // task is required unless the body names a lookup recipe.
    expect(component.required).toEqual(['endUserId']);
    expect(component.anyOf).toEqual([{ required: ['task'] }, { required: ['lookup'] }]);
  });

  it('gives every authenticated route its 401 and every body route its 400 and 413', () => {
    for (const route of ROUTES) {
      const spec = OPERATIONS[`${route.method} ${route.path}`];
      const statuses = Object.keys(spec?.responses ?? {}).map(Number);
      if (spec?.auth !== 'none') expect(statuses, route.path).toContain(401);
      if (spec?.auth === 'apiKey') expect(statuses, route.path).toContain(403);
      if (spec?.body) expect(statuses, route.path).toEqual(expect.arrayContaining([400, 413]));
    }
  });

  it('refuses to build when a route has no operation, or an operation no route', () => {
    const extra = { method: 'GET' as const, path: '/v1/undocumented', handler: 'health', uses: [] };
    expect(() => buildOpenApiDocument([...ROUTES, extra])).toThrow(/No OpenAPI operation for GET \/v1\/undocumented/);
    expect(() => buildOpenApiDocument(ROUTES.slice(1))).toThrow(
      /OPERATIONS names routes that do not exist: GET \/health/,
    );
  });
});
