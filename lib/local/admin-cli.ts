import { existsSync, readFileSync } from 'node:fs';

import { parseArgs } from 'node:util';
import * as z from 'zod';
import { LocalDashboardTokens } from '../auth/local-dashboard-tokens.js';
import { createAwsClients } from '../aws/clients.js';
import { loadConfig } from '../config.js';
import { createDeps, type Deps } from '../deps.js';
import { describeError, ValidationError } from '../errors.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../keys/use-cases.js';
import { setQuota } from '../quota/use-cases.js';
import { connectToLocalRuntime, runtimeInfoPath } from './runtime-info.js';
import { dashboardSecretFile } from './runtime.js';

/**
 * Operator CLI: `npm run --silent admin -- <command> [flags]`, one JSON object on stdout.
 * With BTS_DATA_DIR (or a running runtime under ./.data) it acts on the local runtime;
 * otherwise on the deployed tables named by the usual environment (API_KEYS_TABLE, …).
 */
const USAGE = `usage: admin <command> [flags]
  create-key      --business <id> [--label <text>]
  list-keys       --business <id>
  revoke-key      --business <id> --key-id <id>
  set-quota       --business <id> --limit <n>
  dashboard-token --business <id> [--ttl <seconds>]`;

/** A bad command line: the message plus the usage text, exit code 2. */
class UsageError extends ValidationError {}

const BusinessId = z.string().min(1, '--business is required').max(128);

async function run(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args: rest,
      options: {
        business: { type: 'string' },
        label: { type: 'string' },
        'key-id': { type: 'string' },
        limit: { type: 'string' },
        ttl: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new UsageError(describeError(err));
  }
  const business = () => {
    const r = BusinessId.safeParse(values.business ?? '');
    if (!r.success) throw new UsageError(r.error.issues[0]?.message ?? 'bad --business');
    return r.data;
  };
  const dataDir =
    process.env.BTS_DATA_DIR ??
    (existsSync(runtimeInfoPath('.data')) && !process.env.API_KEYS_TABLE ? '.data' : undefined);
  // Built only once the arguments are known to be good: a usage error needs no runtime.
  const deps = (): Deps => {
    const { config, clients } = dataDir
      ? connectToLocalRuntime(dataDir, process.env)
      : ((c) => ({ config: c, clients: createAwsClients(c) }))(loadConfig(process.env));
    return createDeps(config, clients);
  };

  switch (command) {
    case 'create-key': {
      const b = business();
      return createApiKey(deps(), { businessId: b }, { label: values.label });
    }
    case 'list-keys': {
      const b = business();
      return { keys: await listApiKeys(deps(), { businessId: b }) };
    }
    case 'revoke-key': {
      const keyId = values['key-id'];
      if (!keyId) throw new UsageError('--key-id is required');
      const b = business();
      await revokeApiKey(deps(), { businessId: b }, { keyId });
      return { ok: true };
    }
    case 'set-quota': {
      const limit = z.coerce.number().int().positive().safeParse(values.limit);
      if (!limit.success) throw new UsageError('--limit must be a positive integer');
      const b = business();
      await setQuota(deps(), b, limit.data, new Date());
      return { ok: true };
    }
    case 'dashboard-token': {
      const b = business();
      const ttl = z.coerce
        .number()
        .int()
        .positive()
        .max(86_400)
        .safeParse(values.ttl ?? '3600');
      if (!ttl.success) throw new UsageError('--ttl must be a number of seconds up to 86400');
      if (!dataDir) {
        throw new UsageError(
          'dashboard-token works with a local runtime (set BTS_DATA_DIR); in AWS, sign in to the Cognito user pool',
        );
      }
      const secret = readFileSync(dashboardSecretFile(dataDir), 'utf8').trim();
      return { token: await new LocalDashboardTokens(secret).mint(b, ttl.data) };
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'missing command');
  }
}

run(process.argv.slice(2))
  .then((out) => {
    process.stdout.write(`${JSON.stringify(out)}\n`);
    process.exit(0);
  })
  .catch((err: unknown) => {
    const message = describeError(err);
    process.stderr.write(`admin: ${message}\n${err instanceof UsageError ? `${USAGE}\n` : ''}`);
    process.exit(err instanceof UsageError ? 2 : 1);
  });
