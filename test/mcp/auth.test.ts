import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mintApiKey } from '../../lib/keys/model.js';
import { DynamoApiKeyRepository } from '../../lib/keys/dynamo-api-key-repository.js';
import { useTestAws, type TestAws } from '../support/aws.js';
import { writeRuntimeInfo } from '../../lib/local/runtime-info.js';
import { startToolServer, type RunningToolServer } from '../../lib/mcp/main.js';
import { MCP_TOOLS } from '../../lib/mcp/server.js';
import { parseServerOptions } from '../../lib/mcp/options.js';
import { newClient } from './helpers.js';

/** Each auth mode over HTTP; the table mode against the API-key table in embedded DynamoDB. */
let emulators: TestAws;
let table: string;
const servers: RunningToolServer[] = [];

beforeAll(async () => {
  emulators = await useTestAws();
  table = emulators.config.API_KEYS_TABLE;
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await emulators?.stop();
});

async function start(args: string[], env: Record<string, string> = {}): Promise<string> {
  const s = await startToolServer(
    parseServerOptions(['--transport', 'http', '--port', '0', '--log-level', 'error', ...args], {}),
    env,
  );
  servers.push(s);
  return `${s.http?.url}/mcp`;
}

async function status(url: string, token?: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await res.body?.cancel();
  return res.status;
}

async function listToolsWith(url: string, token: string): Promise<number> {
  const client = newClient();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  const { tools } = await client.listTools();
  await client.close();
  return tools.length;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('HTTP auth modes', () => {
  it('none: no bearer needed', async () => {
    const url = await start(['--auth-mode', 'none']);
    expect(await status(url)).toBe(200);
  });

  it('static: only the configured key passes', async () => {
    const url = await start(['--auth-mode', 'static', '--api-key', 'secret-static-key']);
    expect(await status(url)).toBe(401);
    expect(await status(url, 'wrong-key')).toBe(401);
    expect(await status(url, 'secret-static-key-longer')).toBe(401);
    expect(await listToolsWith(url, 'secret-static-key')).toBe(MCP_TOOLS.length);
  });

  it('table (alias dynamodb): valid keys pass, unknown keys fail, revocation honoured after the cache TTL', async () => {
    const repo = new DynamoApiKeyRepository(emulators.clients.ddb, table);
    const { secret, record } = mintApiKey('biz_mcp', 'mcp', new Date());
    await repo.create(record);
    const url = await start(['--auth-mode', 'dynamodb', '--api-key-table', table, '--auth-cache-ttl', '400'], {
      AWS_ENDPOINT_URL_DYNAMODB: emulators.dynamoEndpoint,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    expect(await status(url)).toBe(401);
    expect(await status(url, 'bts_live_unknownunknownunknownunknown0000')).toBe(401);
    expect(await listToolsWith(url, secret)).toBe(MCP_TOOLS.length);
    await repo.revoke('biz_mcp', record.keyId, new Date());
    // Still cached: the spec allows a revoked key until its cache entry expires.
    expect(await status(url, secret)).toBe(200);
    await sleep(500);
    expect(await status(url, secret)).toBe(401);
  });

  it("table mode with BTS_DATA_DIR reads the local runtime's key table", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bts-mcp-'));
    writeRuntimeInfo(dataDir, {
      pid: process.pid,
      apiUrl: 'http://127.0.0.1:1',
      dynamoEndpoint: emulators.dynamoEndpoint,
      sqsS3Endpoint: emulators.sqsS3Endpoint,
      env: { API_KEYS_TABLE: table },
    });
    const { secret, record } = mintApiKey('biz_local', undefined, new Date());
    await new DynamoApiKeyRepository(emulators.clients.ddb, table).create(record);
    // The default --api-key-table (bts-prod-api-keys) does not exist locally: only the runtime's table can answer.
    const url = await start(['--auth-mode', 'table'], { BTS_DATA_DIR: dataDir });
    expect(await status(url, secret)).toBe(200);
    expect(await status(url, 'bts_live_nope')).toBe(401);
  });
});
