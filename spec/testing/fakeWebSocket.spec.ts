import { TestScheduler } from 'rxjs/testing';
import { fakeWebSocket, FakeWebSocket } from '../../lib/testing/fakeWebSocket';
import type { WebSocketCloseEventLike, WebSocketMessageEventLike } from '../../lib/socket/webSocketLike';

describe('fakeWebSocket', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  /** A socket with every handler recording into `events`. */
  function recorded(socket: FakeWebSocket): string[] {
    const events: string[] = [];
    socket.onopen = () => events.push(`open@${testScheduler.now()}`);
    socket.onmessage = (e: WebSocketMessageEventLike) =>
      events.push(`message ${typeof e.data === 'string' ? e.data : `bytes(${(e.data as ArrayBufferView | ArrayBuffer).byteLength})`}`);
    socket.onclose = (e: WebSocketCloseEventLike) => events.push(`close ${e.code} '${e.reason}' clean=${e.wasClean}@${testScheduler.now()}`);
    return events;
  }

  describe('FakeWebSocket', () => {
    it('connects, opens, receives and records what the client sends', () => {
      testScheduler.run(() => {
        const socket = new FakeWebSocket('ws://x', testScheduler);
        const events = recorded(socket);
        expect(socket.readyState).toBe(0);
        expect(() => socket.send('early')).toThrow('FakeWebSocket.send: still connecting');
        expect(() => socket.receive('early')).toThrow('FakeWebSocket.receive: socket is not open (readyState 0)');
        socket.open();
        expect(socket.readyState).toBe(1);
        expect(() => socket.open()).toThrow('FakeWebSocket.open: socket is not connecting (readyState 1)');
        socket.receive('text');
        socket.receive({ a: 1 });
        socket.receive(new Uint8Array(3));
        socket.receive(new ArrayBuffer(5));
        socket.send('{"ping":1}');
        socket.send('{"event":"sub"}');
        expect(events).toEqual(['open@0', 'message text', 'message {"a":1}', 'message bytes(3)', 'message bytes(5)']);
        expect(socket.sent).toEqual(['{"ping":1}', '{"event":"sub"}']);
        expect(socket.sentJson()).toEqual([{ ping: 1 }, { event: 'sub' }]);
      });
    });

    it('closes from the server: 1006 unclean by default, clean with another code, once', () => {
      testScheduler.run(() => {
        const lost = new FakeWebSocket('ws://x', testScheduler);
        const lostEvents = recorded(lost);
        lost.open();
        lost.closeFromServer();
        lost.closeFromServer({ code: 1000 });
        expect(lostEvents).toEqual(['open@0', "close 1006 '' clean=false@0"]);
        expect(lost.readyState).toBe(3);
        expect(lost.closedByClient).toBeUndefined();

        const normal = new FakeWebSocket('ws://x', testScheduler);
        const normalEvents = recorded(normal);
        normal.open();
        normal.closeFromServer({ code: 4001, reason: 'bye' });
        expect(normalEvents).toEqual(['open@0', "close 4001 'bye' clean=true@0"]);
      });
    });

    it('closes from the client: records code and reason, 1005 without a code, drops later sends', () => {
      testScheduler.run(() => {
        const socket = new FakeWebSocket('ws://x', testScheduler);
        const events = recorded(socket);
        socket.open();
        socket.close();
        socket.close(1000, 'again');
        socket.send('late');
        expect(events).toEqual(['open@0', "close 1005 '' clean=true@0"]);
        expect(socket.closedByClient).toEqual({ code: undefined, reason: undefined });
        expect(socket.sent).toEqual([]);
      });
    });

    it('logs the frames it was created and closed at', () => {
      const logs: unknown[] = [];
      let socket: FakeWebSocket | undefined;
      testScheduler.run(({ time }) => {
        testScheduler.schedule(() => {
          socket = new FakeWebSocket('ws://x', testScheduler);
          logs.push({ ...socket.log });
        }, time('-----|'));
        testScheduler.schedule(() => socket!.close(1000), time('--------|'));
      });
      expect([...logs, socket!.log]).toEqual([
        { subscribedFrame: 5, unsubscribedFrame: Infinity },
        { subscribedFrame: 5, unsubscribedFrame: 8 },
      ]);
    });

    it('opens by itself after autoOpenMs, unless closed first', () => {
      testScheduler.run(() => {
        const opening = new FakeWebSocket('ws://x', testScheduler, 20);
        const events = recorded(opening);
        const closed = new FakeWebSocket('ws://x', testScheduler, 20);
        const closedEvents = recorded(closed);
        testScheduler.schedule(() => closed.close(), 10);
        testScheduler.flush();
        expect(events).toEqual(['open@20']);
        expect(closedEvents).toEqual(["close 1005 '' clean=true@10"]);
      });
    });
  });

  describe('fakeWebSocket()', () => {
    it('keeps every socket the constructor made, with its url and log, and the latest', () => {
      testScheduler.run(() => {
        const fake = fakeWebSocket({ scheduler: testScheduler });
        expect(() => fake.latest()).toThrow('fakeWebSocket: no socket was constructed yet');
        const a = new fake.WebSocketCtor('ws://a') as FakeWebSocket;
        const b = new fake.WebSocketCtor('ws://b') as FakeWebSocket;
        expect(fake.sockets).toEqual([a, b]);
        expect(fake.sockets.map((s) => s.url)).toEqual(['ws://a', 'ws://b']);
        expect(fake.latest()).toBe(b);
        expect(fake.logs).toEqual([a.log, b.log]);
        expect(a).toBeInstanceOf(FakeWebSocket);
      });
    });

    it('runs an action on the latest socket at a given time, and opens sockets after autoOpenMs', () => {
      testScheduler.run(() => {
        const fake = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
        const socket = new fake.WebSocketCtor('ws://a');
        const events = recorded(socket as FakeWebSocket);
        fake.at(10, (s) => s.receive('hello'));
        fake.at(20, (s) => s.closeFromServer({ code: 1001 }));
        testScheduler.flush();
        expect(events).toEqual(['open@1', 'message hello', "close 1001 '' clean=true@20"]);
      });
    });
  });
});
