import { describe, expect, it } from 'vitest';
import { budgetExceededMessage, formatLimit } from '../../../lib/worker/budget.js';
import { parseProxyUrl } from '../../../lib/browser/proxy.js';
import { rotationProxy } from '../../../lib/design/job.js';
import { TaskFailedError } from '../../../lib/errors.js';

describe('budget messages', () => {
  it.each([
    [180_000, '3 minute'],
    [60_000, '60 second'],
    [1_500, '1.5 second'],
    [300, '0.3 second'],
    [600_000, '10 minute'],
  ])('%i ms reads as %s', (ms, text) => {
    expect(formatLimit(ms)).toBe(text);
  });

  it('names the 3 minute limit for agent tasks and the design limit for design tasks', () => {
    expect(budgetExceededMessage('agent', 180_000)).toBe('Task exceeded the 3 minute time limit');
    expect(budgetExceededMessage('design', 60_000)).toBe('Design extraction exceeded its 60 second limit');
  });
});

describe('proxy selection', () => {
  it('parses credentials out of the proxy URL', () => {
    expect(parseProxyUrl('http://us%40er:p%3Ass@proxy.example:8080')).toEqual({
      server: 'http://proxy.example:8080',
      username: 'us@er',
      password: 'p:ss',
    });
    expect(parseProxyUrl('socks5://10.1.2.3:1080')).toEqual({ server: 'socks5://10.1.2.3:1080' });
  });

  it('picks the entry the random source names', () => {
    const pool = ['http://a.example:1', 'http://b.example:2', 'http://c.example:3'];
    expect(parseProxyUrl(rotationProxy(pool, () => 1)).server).toBe('http://b.example:2');
    expect(parseProxyUrl(rotationProxy(pool, () => 2)).server).toBe('http://c.example:3');
  });

  it('fails the task clearly when rotation is requested without a pool', () => {
    expect(() => rotationProxy([])).toThrow(TaskFailedError);
    expect(() => rotationProxy([])).toThrow(
      'IP rotation was requested but no proxy pool is configured (BTS_PROXY_POOL)',
    );
  });

  it.each([['ftp://proxy.example:21'], ['not a url']])('rejects %s', (url) => {
    expect(() => rotationProxy([url])).toThrow(/IP rotation is misconfigured/);
  });
});
