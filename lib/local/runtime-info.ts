import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { resetClients } from '../aws/clients.js';
import { resetConfig } from '../config.js';

/**
 * A running local runtime advertises its emulator endpoints and resource names in
 * `<dataDir>/runtime.json`, so the admin CLI and the MCP server's table auth mode can
 * act on it (dynalite's LevelDB store cannot be opened by two processes).
 */
const RuntimeInfoSchema = z.object({
  pid: z.number().int(),
  apiUrl: z.string(),
  dynamoEndpoint: z.string(),
  sqsS3Endpoint: z.string(),
  env: z.record(z.string(), z.string()),
});
export type RuntimeInfo = z.infer<typeof RuntimeInfoSchema>;

export const runtimeInfoPath = (dataDir: string): string => join(dataDir, 'runtime.json');

export function writeRuntimeInfo(dataDir: string, info: RuntimeInfo): void {
  writeFileSync(runtimeInfoPath(dataDir), JSON.stringify(info, null, 2), { mode: 0o600 });
}

export function removeRuntimeInfo(dataDir: string): void {
  rmSync(runtimeInfoPath(dataDir), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function readRuntimeInfo(dataDir: string): RuntimeInfo {
  const file = runtimeInfoPath(dataDir);
  if (!existsSync(file)) {
    throw new Error(`No local runtime is running with data directory ${dataDir} (no ${file}); start one with \`npm start\``);
  }
  const info = RuntimeInfoSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  if (!isAlive(info.pid)) {
    throw new Error(`The local runtime for ${dataDir} (pid ${info.pid}) is not running; start it with \`npm start\``);
  }
  return info;
}

/** Points this process's SDK clients and configuration at a running local runtime. */
export function attachToLocalRuntime(dataDir: string): RuntimeInfo {
  const info = readRuntimeInfo(dataDir);
  process.env.AWS_ENDPOINT_URL_DYNAMODB = info.dynamoEndpoint;
  process.env.AWS_ENDPOINT_URL_SQS = info.sqsS3Endpoint;
  process.env.AWS_ENDPOINT_URL_S3 = info.sqsS3Endpoint;
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  process.env.AWS_REGION ??= 'us-east-1';
  Object.assign(process.env, info.env);
  resetConfig();
  resetClients();
  return info;
}
