import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import dynalite from 'dynalite';
import { buildApp } from 'fauxqs';
import { Worker } from 'node:worker_threads';

export interface Emulators {
  dynamoEndpoint: string;
  sqsS3Endpoint: string;
  stop(): Promise<void>;
}

/**
 * DynamoDB (dynalite, LevelDB on disk when `dataDir` is given) and SQS + S3 (fauxqs,
 * in memory) inside this process, on loopback ports chosen by the OS unless fixed.
 */
export async function startEmulators(
  opts: { dynamoPath?: string; dynamoPort?: number; sqsPort?: number } = {},
): Promise<Emulators> {
  if (opts.dynamoPath) mkdirSync(opts.dynamoPath, { recursive: true });
  const dynamo: Server = dynalite({
    path: opts.dynamoPath,
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  await new Promise<void>((resolve, reject) => {
    dynamo.once('error', reject);
    dynamo.listen(opts.dynamoPort ?? 0, '127.0.0.1', () => resolve());
  });
  const dynamoPort = (dynamo.address() as AddressInfo).port;
  // Loopback only: the emulators hold every business's local state and check no signatures.
  // fauxqs's own startFauxqs() always binds 0.0.0.0, so its app is built and bound here.
  const fauxqs = buildApp({ logger: false });
  await fauxqs.listen({ port: opts.sqsPort ?? 0, host: '127.0.0.1' });
  const fauxqsPort = (fauxqs.server.address() as AddressInfo).port;
  return {
    dynamoEndpoint: `http://127.0.0.1:${dynamoPort}`,
    sqsS3Endpoint: `http://127.0.0.1:${fauxqsPort}`,
    async stop() {
      await fauxqs.close();
      await new Promise<void>((resolve) => dynamo.close(() => resolve()));
    },
  };
}

/**
 * The same emulators on a worker thread. The thread runs TypeScript through tsx's loader,
 * which every way of starting the runtime (npm start, vitest, tsx scripts) has installed.
 */
export async function startEmulatorsThread(opts: { dynamoPath?: string } = {}): Promise<Emulators> {
  if (opts.dynamoPath) mkdirSync(opts.dynamoPath, { recursive: true });
  const worker = new Worker(new URL('./emulator-thread.ts', import.meta.url), {
    workerData: opts,
    execArgv: ['--import', 'tsx'],
  });
  const ready = await new Promise<{ dynamoEndpoint: string; sqsS3Endpoint: string }>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`emulator thread exited with code ${code}`)));
    worker.once('message', (msg: { type: string; dynamoEndpoint: string; sqsS3Endpoint: string }) => resolve(msg));
  });
  worker.removeAllListeners('exit');
  return {
    ...ready,
    async stop() {
      const stopped = new Promise<void>((resolve) => {
        worker.on('message', (msg: { type: string }) => {
          if (msg.type === 'stopped') resolve();
        });
        worker.once('exit', () => resolve());
      });
      worker.postMessage({ type: 'stop' });
      await stopped;
      await worker.terminate();
    },
  };
}
