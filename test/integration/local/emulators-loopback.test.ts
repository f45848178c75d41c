import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type Emulators } from '../../../lib/local/emulators.js';

/**
 * The local emulators hold every business's state and verify no signatures, so they must
 * answer on loopback only: a neighbour on the machine's network reaches neither port.
 */
let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators();
});
afterAll(async () => emulators?.stop());

/** Resolves with 'connected' or the connection error's code. */
function dial(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

/** This machine's own non-loopback IPv4 address: what another host would dial. */
function externalAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('This machine has no non-loopback IPv4 address; the test needs one to dial from outside loopback');
}

describe('local emulators', () => {
  it.each(['dynamoEndpoint', 'sqsS3Endpoint'] as const)('%s listens on loopback only', async (which) => {
    const port = Number(new URL(emulators[which]).port);
    expect(await dial('127.0.0.1', port)).toBe('connected');
    expect(await dial(externalAddress(), port)).toBe('ECONNREFUSED');
  });
});
