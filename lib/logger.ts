import { Logger } from '@aws-lambda-powertools/logger';
import type { Config } from './config.js';

export type { Logger } from '@aws-lambda-powertools/logger';

/**
 * A process's root logger (Powertools: structured JSON). Request-scoped keys go on
 * children, never on the root, because the local runtime serves many requests in one
 * process. Nothing that could hold a secret (headers, bodies, credential values) is logged.
 */
export function createLogger(level: Config['BTS_LOG_LEVEL']): Logger {
  return new Logger({ serviceName: 'browser-task-service', logLevel: level });
}
