/**
 * The browser build's default constructor (lib/socket/defaultWebSocketCtor.browser.ts, swapped in for
 * defaultWebSocketCtor.ts by scripts/browser-variants.js): the global `WebSocket` only, and nothing that
 * mentions `ws`, so a browser bundler neither bundles nor warns about it. It runs for real in
 * spec/browser/browser.spec.ts, whose page is built with the same variants.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { ConfigError } from '../../lib/errors';
import * as universal from '../../lib/socket/defaultWebSocketCtor';
import * as browser from '../../lib/socket/defaultWebSocketCtor.browser';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { FakeWebSocket } from '../../lib/testing/fakeWebSocket';

// The variant can stand in for the module where the library uses it: `defaultWebSocketCtor()`.
const sameShape: typeof universal.defaultWebSocketCtor = browser.defaultWebSocketCtor;

describe('defaultWebSocketCtor (browser build)', () => {
  const Global = FakeWebSocket as unknown as WebSocketCtor;

  it('emits the global WebSocket once, read at subscribe time, then completes', async () => {
    let reads = 0;
    const resolved = sameShape({ isNode: () => true, loadWs: () => Promise.reject(new Error('never')), globalWebSocket: () => (reads++, Global) });
    expect(reads).toBe(0);
    await expect(lastValueFrom(resolved.pipe(toArray()))).resolves.toEqual([Global]);
    expect(reads).toBe(1);
  });

  it('without a global WebSocket: a ConfigError naming WebSocketCtor, as the stream error', async () => {
    const error = await firstValueFrom(browser.defaultWebSocketCtor({ globalWebSocket: () => undefined })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe('WebSocketCtor is needed: there is no global WebSocket in this runtime');
  });

  it('reads the runtime by default (Node 20 has no global WebSocket; Node 22 has one)', async () => {
    const global = (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
    const outcome = await firstValueFrom(browser.defaultWebSocketCtor()).then(
      (ctor) => ctor,
      (e: unknown) => e,
    );
    expect(outcome).toEqual(global ?? expect.any(ConfigError));
  });

  it('loads nothing: its module imports neither ws nor anything that does', () => {
    jest.isolateModules(() => {
      jest.doMock('ws', () => {
        throw new Error('ws was loaded');
      });
      expect(() => jest.requireActual('../../lib/socket/defaultWebSocketCtor.browser')).not.toThrow();
    });
    const source = readFileSync(path.join(__dirname, '..', '..', 'lib', 'socket', 'defaultWebSocketCtor.browser.ts'), 'utf8');
    expect(source).not.toMatch(/['"]ws['"]/);
  });
});
