/**
 * The server's logger writes to stderr only: on the stdio transport stdout carries the
 * protocol, and one stray line there breaks the client.
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export function createLogger(level: LogLevel): Logger {
  const at =
    (l: LogLevel) =>
    (msg: string): void => {
      if (LEVELS[l] >= LEVELS[level]) process.stderr.write(`${new Date().toISOString()} ${l.toUpperCase()} ${msg}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
