import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config.js';

let root: Logger | undefined;

/**
 * The process logger (Powertools: structured JSON). Request-scoped keys go on children,
 * never on the root, because the local runtime serves many requests in one process.
 * Nothing that could hold a secret (headers, bodies, credential values) is ever logged.
 */
export function logger(): Logger {
  root ??= new Logger({ serviceName: 'browser-task-service', logLevel: config().BTS_LOG_LEVEL });
  return root;
}
