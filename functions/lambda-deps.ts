import { createAwsClients } from '../lib/aws/clients.js';
import { loadConfig } from '../lib/config.js';
import { createDeps, type Deps } from '../lib/deps.js';

let deps: Deps | undefined;

/**
 * The Lambda composition root: one Deps per container, built on first use from the
 * function's environment (the CDK stack sets it), then reused by warm invocations.
 */
export function lambdaDeps(): Deps {
  if (!deps) {
    const config = loadConfig(process.env);
    deps = createDeps(config, createAwsClients(config));
  }
  return deps;
}
