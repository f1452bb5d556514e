import { TestScheduler } from 'rxjs/testing';
import { ExchangeSocket, streamOf, type SocketHooks } from '../../../lib/testing/internal/exchangeSocket';

describe('streamOf', () => {
  it.each([
    ['ws://127.0.0.1:1/api/v1/ws/KEY', 'private'],
    ['ws://127.0.0.1:1/api/v1/ws', 'private'],
    ['ws://127.0.0.1:1/api/v1/ws?x=1', 'private'],
    ['ws://127.0.0.1:1/ws', 'public'],
    ['ws://127.0.0.1:1/api/v1/wsx', 'public'],
    ['ws://127.0.0.1:1/openapi/quote/ws/v1', 'public'],
  ])('%s is %s', (url, stream) => {
    expect(streamOf(url)).toBe(stream);
  });
});

describe('ExchangeSocket', () => {
  const scheduler = new TestScheduler(() => undefined);

  function hooks() {
    const log: string[] = [];
    const h: SocketHooks = {
      created: (s) => log.push(`created ${s.stream} ${s.url}`),
      sent: (s, text) => log.push(`sent ${s.stream} ${text}`),
    };
    return { h, log };
  }

  it('tells the server it was created, with its stream', () => {
    const { h, log } = hooks();
    const socket = new ExchangeSocket('ws://h/api/v1/ws/abc', scheduler, h);
    expect(socket.stream).toBe('private');
    expect(log).toEqual(['created private ws://h/api/v1/ws/abc']);
  });

  it.each<[string, string | undefined]>([
    ['ws://h/api/v1/ws/abc', 'abc'],
    ['ws://h/api/v1/ws/abc?x=1#f', 'abc'],
    ['ws://h/api/v1/ws/', undefined],
    ['ws://h/ws', undefined],
  ])('reads the listen key of %s as %s', (url, key) => {
    expect(new ExchangeSocket(url, scheduler, hooks().h).listenKey).toBe(key);
  });

  it('hands the server only what is sent while open', () => {
    const { h, log } = hooks();
    const socket = new ExchangeSocket('ws://h/ws', scheduler, h);
    socket.open();
    socket.send('{"ping":1}');
    socket.close();
    socket.send('{"ping":2}');
    expect(log).toEqual(['created public ws://h/ws', 'sent public {"ping":1}']);
    expect(socket.sent).toEqual(['{"ping":1}']);
  });
});
