import type { AwsClients } from './aws/clients.js';
import { BrowserLauncher } from './browser/chromium.js';
import { networkPolicy, type NetworkPolicy } from './browser/network/guard.js';
import type { Config } from './config.js';
import { createDeps, type Deps } from './deps.js';
import type { AssetStore } from './design/asset-store.js';
import { S3AssetStore } from './design/s3-asset-store.js';

/** Deps of the processes that run browsers: the workers and the local runtime. */
export interface WorkerDeps extends Deps {
  assets: AssetStore;
  browsers: BrowserLauncher;
  network: NetworkPolicy;
}

export interface WorkerDepsOptions {
  /** The host environment, read when Chromium launches; only an allow-list reaches the browser. */
  hostEnv?: () => Record<string, string | undefined>;
  /** Loopback ports a page must never reach, even with private networks allowed (the local emulators). */
  refusedLocalPorts?: ReadonlySet<number>;
}

/** createDeps plus the browser side: one Chromium launcher, the network policy, the asset store. */
export function createWorkerDeps(config: Config, clients: AwsClients, opts: WorkerDepsOptions = {}): WorkerDeps {
  return {
    ...createDeps(config, clients),
    assets: new S3AssetStore(clients.s3, config.ASSETS_BUCKET, config.BTS_ASSET_URL_TTL_S),
    browsers: new BrowserLauncher({
      executablePath: config.CHROMIUM_PATH,
      inLambda: Boolean(config.AWS_LAMBDA_FUNCTION_NAME),
      ...(opts.hostEnv ? { hostEnv: opts.hostEnv } : {}),
    }),
    network: networkPolicy(
      config.BTS_ALLOW_PRIVATE_NETWORK,
      undefined,
      opts.refusedLocalPorts ? { refusedLocalPorts: opts.refusedLocalPorts } : {},
    ),
  };
}
