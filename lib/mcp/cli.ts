import { AppError } from '../errors.js';
import { startToolServer } from './main.js';
import { HelpRequested, parseServerOptions } from './options.js';

/**
 * `npm run mcp -- <flags>` and the `browser-task-mcp` bin. Exits non-zero with a one-line
 * reason on bad flags; closes Chromium on every way out (stdin closed, SIGINT, SIGTERM).
 */
async function main(): Promise<void> {
  let options;
  try {
    options = parseServerOptions(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(`${err.message}\n`);
      return;
    }
    process.stderr.write(`browser-task-mcp: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const running = await startToolServer(options, process.env);
  let closing = false;
  const shutdown = async (code: number): Promise<void> => {
    if (closing) return;
    closing = true;
    await running.close().catch(() => undefined);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  await running.done;
  await shutdown(0);
}

main().catch((err: unknown) => {
  const message = err instanceof AppError && err.expose ? err.message : ((err as Error).stack ?? String(err));
  process.stderr.write(`browser-task-mcp: ${message}\n`);
  process.exit(1);
});
