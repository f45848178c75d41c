import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CLIENT_TYPES, OPENAPI_JSON, renderClientTypes, renderOpenApiJson, ROOT } from './openapi-artifacts.js';

/** `npm run openapi`: regenerates docs/openapi.json, then the client types from it. */
const json = renderOpenApiJson();
writeFileSync(OPENAPI_JSON, json);
writeFileSync(CLIENT_TYPES, await renderClientTypes(JSON.parse(json) as object));
for (const f of [OPENAPI_JSON, CLIENT_TYPES]) console.log(`wrote ${relative(ROOT, f)}`);
