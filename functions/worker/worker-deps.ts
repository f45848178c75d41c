import { createAwsClients } from '../../lib/aws/clients.js';
import { loadConfig } from '../../lib/config.js';
import { createWorkerDeps, type WorkerDeps } from '../../lib/worker-deps.js';

let deps: WorkerDeps | undefined;

/** The worker Lambdas' composition root: one WorkerDeps per container, built on first use from its environment. */
export function lambdaWorkerDeps(): WorkerDeps {
  if (!deps) {
    const config = loadConfig(process.env);
    deps = createWorkerDeps(config, createAwsClients(config), { hostEnv: () => process.env });
  }
  return deps;
}
