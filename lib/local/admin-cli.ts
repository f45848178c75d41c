import { existsSync, readFileSync } from 'node:fs';

import { parseArgs } from 'node:util';
import * as z from 'zod';
import { deps } from '../deps.js';
import { LocalDashboardTokens } from '../auth/dashboard-token.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../keys/use-cases.js';
import { attachToLocalRuntime, runtimeInfoPath } from './runtime-info.js';
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

class UsageError extends Error {}

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
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const business = () => {
    const r = BusinessId.safeParse(values.business ?? '');
    if (!r.success) throw new UsageError(r.error.issues[0]?.message ?? 'bad --business');
    return r.data;
  };
  const dataDir = process.env.BTS_DATA_DIR ?? (existsSync(runtimeInfoPath('.data')) && !process.env.API_KEYS_TABLE ? '.data' : undefined);
  const local = () => {
    if (dataDir) attachToLocalRuntime(dataDir);
  };

  switch (command) {
    case 'create-key': {
      const b = business();
      local();
      return createApiKey(deps(), b, values.label);
    }
    case 'list-keys': {
      const b = business();
      local();
      return { keys: await listApiKeys(deps(), b) };
    }
    case 'revoke-key': {
      const keyId = values['key-id'];
      if (!keyId) throw new UsageError('--key-id is required');
      const b = business();
      local();
      await revokeApiKey(deps(), b, keyId);
      return { ok: true };
    }
    case 'set-quota': {
      const limit = z.coerce.number().int().positive().safeParse(values.limit);
      if (!limit.success) throw new UsageError('--limit must be a positive integer');
      const b = business();
      local();
      await deps().businesses.setQuota(b, limit.data, new Date());
      return { ok: true };
    }
    case 'dashboard-token': {
      const b = business();
      const ttl = z.coerce.number().int().positive().max(86_400).safeParse(values.ttl ?? '3600');
      if (!ttl.success) throw new UsageError('--ttl must be a number of seconds up to 86400');
      if (!dataDir) {
        throw new UsageError('dashboard-token works with a local runtime (set BTS_DATA_DIR); in AWS, sign in to the Cognito user pool');
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
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`admin: ${message}\n${err instanceof UsageError ? `${USAGE}\n` : ''}`);
    process.exit(err instanceof UsageError ? 2 : 1);
  });

