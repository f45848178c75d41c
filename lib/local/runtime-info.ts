import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { createAwsClients, type AwsClients } from '../aws/clients.js';
import { loadConfig, type Config } from '../config.js';

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

/** The emulators accept any signature; the SDK still wants credentials to sign with. */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

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
    throw new Error(
      `No local runtime is running with data directory ${dataDir} (no ${file}); start one with \`npm start\``,
    );
  }
  const info = RuntimeInfoSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  if (!isAlive(info.pid)) {
    throw new Error(`The local runtime for ${dataDir} (pid ${info.pid}) is not running; start it with \`npm start\``);
  }
  return info;
}

/** The endpoint settings that point SDK clients at emulators. */
export function emulatorEnv(e: { dynamoEndpoint: string; sqsS3Endpoint: string }): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: e.dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: e.sqsS3Endpoint,
    AWS_ENDPOINT_URL_S3: e.sqsS3Endpoint,
  };
}

/** Config and clients of another process acting on a running local runtime (admin CLI, MCP table auth). */
export function connectToLocalRuntime(
  dataDir: string,
  env: Record<string, string | undefined>,
): { config: Config; clients: AwsClients } {
  const info = readRuntimeInfo(dataDir);
  const config = loadConfig({ ...env, ...info.env, ...emulatorEnv(info) });
  return { config, clients: createAwsClients(config, { credentials: EMULATOR_CREDENTIALS }) };
}
