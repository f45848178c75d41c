import { parentPort, workerData } from 'node:worker_threads';
import { startEmulators } from './emulators.js';

/**
 * Runs the emulators on their own thread so the service's handlers and the emulated
 * DynamoDB/SQS/S3 use both cores, as the real service and AWS would never share one.
 */
const port = parentPort;
if (!port) throw new Error('emulator-thread must run as a worker thread');
const emulators = await startEmulators(workerData as { dynamoPath?: string });
port.postMessage({ type: 'ready', dynamoEndpoint: emulators.dynamoEndpoint, sqsS3Endpoint: emulators.sqsS3Endpoint });
port.on('message', (msg: { type: string }) => {
  if (msg.type !== 'stop') return;
  void emulators.stop().then(() => {
    port.postMessage({ type: 'stopped' });
    port.close();
  });
});
