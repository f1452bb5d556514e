import { WebSocket as Ws } from 'ws';
import type { WebSocketCtor, WebSocketLike } from '../../lib/socket/webSocketLike';
import { FakeWebSocket, fakeWebSocket } from '../../lib/testing/fakeWebSocket';

describe('WebSocketLike', () => {
  it('is satisfied by the ws client, the DOM WebSocket type and the fake (type-level)', () => {
    const fromWs: WebSocketCtor = Ws;
    const fromDom: WebSocketCtor | undefined = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
    const fromFake: WebSocketCtor = fakeWebSocket().WebSocketCtor;
    // @ts-expect-error a constructor without send/close/handlers is rejected
    const notASocket: WebSocketCtor = class {
      constructor(readonly url: string) {}
    };
    expect([typeof fromWs, typeof fromFake, typeof notASocket]).toEqual(['function', 'function', 'function']);
    expect(fromDom === undefined || typeof fromDom === 'function').toBe(true);
  });

  it('lets a handler be assigned and called through the minimal interface', () => {
    const socket: WebSocketLike = new FakeWebSocket('ws://x', { now: () => 0, schedule: () => { throw new Error('unused'); } });
    const seen: unknown[] = [];
    socket.onmessage = (e) => seen.push(e.data);
    (socket as FakeWebSocket).open();
    (socket as FakeWebSocket).receive('{"a":1}');
    expect(seen).toEqual(['{"a":1}']);
  });
});
