import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Logger, LogLevel } from './log.js';

/**
 * The log of one MCP session: every line goes to the server's own log (stderr) and, as
 * `notifications/message`, to that session's client at or above the level the client
 * chose with `logging/setLevel` (until it chooses, the server's --log-level). Only this
 * session's events are logged here, so no client reads another's.
 */
const SEVERITY: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
const FROM_SERVER_LEVEL: Record<LogLevel, LoggingLevel> = {
  debug: 'debug',
  info: 'info',
  warn: 'warning',
  error: 'error',
};

export const LOGGER_NAME = 'browser-task-service';

export class ClientLog implements Logger {
  private level: LoggingLevel;

  constructor(
    private readonly mcp: McpServer,
    private readonly server: Logger,
    serverLevel: LogLevel,
  ) {
    this.level = FROM_SERVER_LEVEL[serverLevel];
    // Replaces the SDK's own handler: it would filter only after a setLevel, and by a
    // transport session id that stdio does not have.
    mcp.server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.level = request.params.level;
      return {};
    });
  }

  get clientLevel(): LoggingLevel {
    return this.level;
  }

  private send(level: LoggingLevel, message: string): void {
    if (!this.mcp.isConnected() || SEVERITY.indexOf(level) < SEVERITY.indexOf(this.level)) return;
    // A client that went away mid-call must not turn a log line into a failure.
    this.mcp.server.sendLoggingMessage({ level, logger: LOGGER_NAME, data: message }).catch(() => undefined);
  }

  debug(msg: string): void {
    this.server.debug(msg);
    this.send('debug', msg);
  }

  info(msg: string): void {
    this.server.info(msg);
    this.send('info', msg);
  }

  warn(msg: string): void {
    this.server.warn(msg);
    this.send('warning', msg);
  }

  error(msg: string): void {
    this.server.error(msg);
    this.send('error', msg);
  }
}
