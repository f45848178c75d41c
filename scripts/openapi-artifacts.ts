import openapiTS, { astToString } from 'openapi-typescript';
import { resolve } from 'node:path';
import { buildOpenApiDocument, type OpenApiDocument } from '../lib/http/openapi.js';

/**
 * The generated files that are committed: the OpenAPI document and the TypeScript
 * client's types derived from it. `npm run openapi` writes them; test/unit/api/openapi.test.ts
 * fails when a committed copy differs from what these functions produce.
 */
export const ROOT = resolve(import.meta.dirname, '..');
export const OPENAPI_JSON = resolve(ROOT, 'docs/openapi.json');
export const CLIENT_TYPES = resolve(ROOT, 'clients/typescript/src/types.gen.ts');
export const REGENERATE = 'npm run openapi';

export function renderOpenApiJson(doc: OpenApiDocument = buildOpenApiDocument()): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const BANNER = `/**
 * Generated from docs/openapi.json by \`${REGENERATE}\` (openapi-typescript). Do not edit:
 * change the zod schemas in lib/ and regenerate.
 */
`;

/** Types of the document for the client: \`paths\`, \`components\`, and one alias per schema. */
export async function renderClientTypes(doc: object): Promise<string> {
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0], {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    silent: true,
  });
  return BANNER + astToString(ast);
}
