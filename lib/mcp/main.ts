import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createAwsClients, credentialsFrom } from '../aws/clients.js';
import { BrowserLauncher } from '../browser/chromium.js';
import { KnowledgeIndex } from '../knowledge/index.js';
import { networkPolicy, type NetworkPolicy, type Resolver } from '../browser/network/guard.js';
import { loadConfig } from '../config.js';
import { DynamoApiKeyRepository } from '../keys/dynamo-api-key-repository.js';
import { connectToLocalRuntime } from '../local/runtime-info.js';
import { NoAuth, StaticKeyAuth, TableKeyAuth, type Authenticator } from './auth.js';
import { startHttpServer, type RunningHttpServer } from './http.js';
import { createLogger, type Logger } from './log.js';
import type { ServerOptions } from './options.js';
import { createToolServer, type ToolServerDeps } from './server.js';

/** Wires options to a running server; the CLI and the tests both start it through here. */
export interface RunningToolServer {
  http?: RunningHttpServer;
  /** Resolves when a stdio client disconnects. */
  done: Promise<void>;
  close(): Promise<void>;
}

export function createAuthenticator(
  opts: ServerOptions,
  env: Record<string, string | undefined>,
  log: Logger,
): Authenticator {
  if (opts.authMode === 'none') return new NoAuth();
  if (opts.authMode === 'static') return new StaticKeyAuth(opts.apiKey ?? '');
  const dataDir = env.BTS_DATA_DIR;
  if (dataDir) {
    // Same rule as the admin CLI: a running local runtime's tables win over AWS defaults.
    const local = connectToLocalRuntime(dataDir, env);
    log.info(`auth: API keys from the local runtime in ${dataDir} (table ${local.config.API_KEYS_TABLE})`);
    return new TableKeyAuth(
      new DynamoApiKeyRepository(local.clients.ddb, local.config.API_KEYS_TABLE),
      opts.authCacheTtlMs,
    );
  }
  const credentials = credentialsFrom(env);
  const clients = createAwsClients(loadConfig(env), credentials ? { credentials } : {});
  return new TableKeyAuth(new DynamoApiKeyRepository(clients.ddb, opts.apiKeyTable), opts.authCacheTtlMs);
}

/** Binding every interface without auth hands the browser to the whole network. */
export function exposureWarning(opts: Pick<ServerOptions, 'host' | 'authMode'>): string | undefined {
  if ((opts.host === '0.0.0.0' || opts.host === '::') && opts.authMode === 'none') {
    return `Listening on ${opts.host} with --auth-mode none: anyone on the network can drive this browser. Use --auth-mode static or table.`;
  }
  return undefined;
}

/** What tests may swap: the guard's DNS and where a judged address is dialled, so a host name can stand for a public address served on loopback. */
export interface ToolServerSeams {
  resolve?: Resolver;
  dial?: NetworkPolicy['dial'];
}

export async function startToolServer(
  opts: ServerOptions,
  env: Record<string, string | undefined> = {},
  seams: ToolServerSeams = {},
): Promise<RunningToolServer> {
  const log = createLogger(opts.logLevel);
  const knowledge = await KnowledgeIndex.load(resolve(opts.knowledgeGraphDir));
  const launcher = new BrowserLauncher({
    headless: opts.headless,
    executablePath: loadConfig(env).CHROMIUM_PATH,
    hostEnv: () => env,
  });
  const deps: ToolServerDeps = {
    launcher,
    network: networkPolicy(opts.allowPrivateNetwork, seams.resolve, { dial: seams.dial }),
    knowledge,
    defaults: {
      proxy: opts.proxy,
      fingerprint: opts.fingerprint,
      humanize: opts.humanize,
      humanPreset: opts.humanPreset,
    },
    idleTimeoutMs: opts.idleTimeoutMs,
    maxBrowserSessions: opts.maxBrowserSessions,
    allowCallerProxy: opts.allowCallerProxy,
    log,
    logLevel: opts.logLevel,
  };

  if (opts.transport === 'stdio') {
    const tools = createToolServer(deps, 'stdio');
    const transport = new StdioServerTransport();
    let finish: () => void = () => undefined;
    const done = new Promise<void>((r) => (finish = r));
    transport.onclose = () => finish();
    await tools.server.connect(transport);
    log.info(`MCP tool server on stdio (${knowledge.entries.length} knowledge entries)`);
    return {
      done,
      async close() {
        await tools.close();
        await launcher.close();
      },
    };
  }

  const warning = exposureWarning(opts);
  if (warning) {
    log.warn(warning);
  }
  const http = await startHttpServer({
    host: opts.host,
    port: opts.port,
    auth: createAuthenticator(opts, env, log),
    deps,
    log,
    maxSessionsPerIdentity: opts.maxMcpSessionsPerKey,
    allowedOrigins: opts.allowedOrigins,
  });
  log.info(`MCP tool server on ${http.url}/mcp (auth ${opts.authMode})`);
  return {
    http,
    done: new Promise<void>(() => undefined),
    async close() {
      await http.close();
      await launcher.close();
    },
  };
}
