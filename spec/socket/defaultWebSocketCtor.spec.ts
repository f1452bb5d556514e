/**
 * On Node the default constructor is `ws`, loaded at connect time. The other branch (a browser's global
 * `WebSocket`, never `ws`) runs for real in spec/browser/browser.spec.ts, whose page connects through the
 * default; every branch runs here with the runtime replaced (`CtorSources`).
 */
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { WebSocket as WsWebSocket, WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../lib/errors';
import { type CtorSources, defaultWebSocketCtor } from '../../lib/socket/defaultWebSocketCtor';
import type { WebSocketCtor, WebSocketLike } from '../../lib/socket/webSocketLike';

describe('defaultWebSocketCtor', () => {
  it("emits ws's WebSocket class once on Node, then completes", async () => {
    const ctors = await lastValueFrom(defaultWebSocketCtor().pipe(toArray()));
    expect(ctors).toHaveLength(1);
    expect(ctors[0]).toBe(WsWebSocket);
  });

  it('gives a constructor that opens a real socket and carries a frame both ways', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    server.on('connection', (socket) => socket.on('message', (data) => socket.send(`echo ${String(data)}`)));
    const { port } = server.address() as AddressInfo;
    try {
      const Ctor = await firstValueFrom(defaultWebSocketCtor());
      const socket: WebSocketLike = new Ctor(`ws://127.0.0.1:${port}`);
      const echoed = await new Promise<string>((resolve, reject) => {
        socket.onopen = () => socket.send('hello');
        socket.onmessage = (event) => resolve(String(event.data));
        socket.onerror = () => reject(new Error('socket error'));
      });
      expect(echoed).toBe('echo hello');
      const closed = new Promise<void>((resolve) => (socket.onclose = () => resolve()));
      socket.close(1000, 'done');
      await closed;
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('resolves the same class on every subscription', async () => {
    const resolved = defaultWebSocketCtor();
    const [a, b] = await Promise.all([firstValueFrom(resolved), firstValueFrom(resolved)]);
    expect(a).toBe(b);
  });

  describe('the branches, with the runtime replaced', () => {
    const Global = WsWebSocket as unknown as WebSocketCtor;
    const Loaded = class Other {} as unknown as WebSocketCtor;
    const sources = (over: Partial<CtorSources>): CtorSources => ({
      isNode: () => true,
      globalWebSocket: () => undefined,
      loadWs: () => Promise.reject(new Error('Cannot find module ws')),
      ...over,
    });
    const resolve = (s: CtorSources): Promise<unknown> => firstValueFrom(defaultWebSocketCtor(s));

    it('off Node: the global WebSocket, without loading ws', async () => {
      const loadWs = jest.fn(() => Promise.resolve({ WebSocket: Loaded }));
      await expect(resolve(sources({ isNode: () => false, globalWebSocket: () => Global, loadWs }))).resolves.toBe(Global);
      expect(loadWs).not.toHaveBeenCalled();
    });

    it('on Node: ws in any module shape (named, default class, default namespace), before a global', async () => {
      for (const mod of [{ WebSocket: Loaded }, { default: Loaded }, { default: { WebSocket: Loaded } }]) {
        await expect(resolve(sources({ globalWebSocket: () => Global, loadWs: () => Promise.resolve(mod) }))).resolves.toBe(Loaded);
      }
    });

    it('ws missing (or without a constructor): the global WebSocket', async () => {
      await expect(resolve(sources({ globalWebSocket: () => Global }))).resolves.toBe(Global);
      await expect(resolve(sources({ globalWebSocket: () => Global, loadWs: () => Promise.resolve({}) }))).resolves.toBe(Global);
    });

    it('neither: a ConfigError naming WebSocketCtor, as the stream error', async () => {
      const error = await resolve(sources({})).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/WebSocketCtor/);
    });
  });
});
