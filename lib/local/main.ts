import { firstStartBanner } from './banner.js';
import { startLocalRuntime } from './runtime.js';

/** `npm start`: the whole service on this machine. */
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(2);
}
const dataDir = process.env.BTS_DATA_DIR ?? '.data';

// BTS_LOCAL_WORKERS=false serves the API alone (benchmarks of the API, a separate worker process).
const workers = process.env.BTS_LOCAL_WORKERS !== 'false';
const runtime = await startLocalRuntime({
  dataDir,
  port,
  host: process.env.HOST ?? '127.0.0.1',
  workers,
  env: process.env,
});
const lines = [`Browser Task Service listening on ${runtime.url}  (data: ${runtime.dataDir})`];
if (runtime.bootstrapKey) {
  lines.push(
    '',
    ...firstStartBanner({
      url: runtime.url,
      apiKey: runtime.bootstrapKey.apiKey,
      businessId: runtime.bootstrapKey.businessId,
      modelConfigured: runtime.config.BTS_MODEL_PROVIDER !== undefined,
    }),
  );
} else {
  lines.push(
    'Use the API key printed on first start, or mint one: npm run --silent admin -- create-key --business local-business',
  );
}
console.log(lines.join('\n'));

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping…`);
  runtime
    .stop()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
