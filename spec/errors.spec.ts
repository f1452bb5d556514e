import {
  ConfigError,
  ConnectionClosedError,
  DecodeError,
  EventTimeOutOfRangeError,
  HeartbeatTimeoutError,
  RateLimitedError,
  RequestFailedError,
  RequestRejectedError,
  RequestTimeoutError,
  SendQueueFullError,
  SubscriptionRejectedError,
} from '../lib/errors';

const WS = 'ws://127.0.0.1:1234/quote/ws/v1';

describe('errors', () => {
  it('each class has its own name, is an Error, and subclasses keep their parent', () => {
    const errors: [Error, string][] = [
      [new ConfigError('recvWindow', 'must be positive'), 'ConfigError'],
      [new RequestRejectedError(400), 'RequestRejectedError'],
      [new RateLimitedError(429, 1000), 'RateLimitedError'],
      [new RequestFailedError('GET', '/p', 'fetch failed'), 'RequestFailedError'],
      [new RequestTimeoutError('GET', '/p', 10), 'RequestTimeoutError'],
      [new ConnectionClosedError(1006, '', false), 'ConnectionClosedError'],
      [new HeartbeatTimeoutError(1), 'HeartbeatTimeoutError'],
      [new SendQueueFullError(1), 'SendQueueFullError'],
      [new SubscriptionRejectedError('BTCUSDT', 'trade'), 'SubscriptionRejectedError'],
      [new EventTimeOutOfRangeError('executionReport', 0, 0, 0), 'EventTimeOutOfRangeError'],
    ];
    for (const [error, name] of errors) {
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(String(error).startsWith(`${name}: `)).toBe(true);
    }
    expect(new RateLimitedError(429, 1)).toBeInstanceOf(RequestRejectedError);
    expect(new RequestTimeoutError('GET', '/p', 1)).toBeInstanceOf(RequestFailedError);
  });

  it('RequestRejectedError and SubscriptionRejectedError say code and message only when known', () => {
    expect(new RequestRejectedError(401, -1022, 'Signature for this request is not valid.').message).toBe('HTTP 401, code -1022: Signature for this request is not valid.');
    expect(new RequestRejectedError(500).message).toBe('HTTP 500');
    expect(new RequestRejectedError(404, '-100010').message).toBe('HTTP 404, code -100010');
    expect(new RequestRejectedError(400, undefined, 'bad').message).toBe('HTTP 400: bad');
    expect(new SubscriptionRejectedError('BTCUSDT', 'kline', '-100010', 'Invalid Symbols!').message).toBe('subscription BTCUSDT kline rejected: code -100010: Invalid Symbols!');
    expect(new SubscriptionRejectedError('X', 'trade').message).toBe('subscription X trade rejected');
  });

  it('RateLimitedError and RequestTimeoutError add their wait to the message', () => {
    expect(new RateLimitedError(429, 7000, -1003, 'Too many requests').message).toBe('HTTP 429, code -1003: Too many requests (retry after 7000 ms)');
    expect(new RequestTimeoutError('POST', '/api/v1/order', 5000)).toMatchObject({
      method: 'POST',
      path: '/api/v1/order',
      timeoutMs: 5000,
      message: 'POST /api/v1/order failed: no answer within 5000 ms (timed out)',
    });
  });

  it('EventTimeOutOfRangeError measures the skew either way', () => {
    expect(new EventTimeOutOfRangeError('executionReport', 1000, 4000, 2000).message).toBe('executionReport event time 1000 is 3000 ms from the clock (bound 2000 ms): dropped');
    expect(new EventTimeOutOfRangeError('ticketInfo', 9000, 4000, 2000).message).toContain('is 5000 ms from the clock');
  });

  describe('ConnectionClosedError', () => {
    it('without an address: the plain close, and no detail fields at all', () => {
      const e = new ConnectionClosedError(1006, '', false);
      expect(e.message).toBe('connection closed (code 1006)');
      expect(Object.keys(e).sort()).toEqual(['code', 'name', 'reason', 'wasClean']);
      expect(new ConnectionClosedError(4000, 'going away', true).message).toBe('connection closed (code 4000, going away)');
    });

    it('says what failed where, for each failure kind', () => {
      const at = (failure: ConstructorParameters<typeof ConnectionClosedError>[3], code = 1006, reason = ''): string =>
        new ConnectionClosedError(code, reason, false, { address: WS, ...failure }).message;
      expect(at({})).toBe(`connection to ${WS} closed (code 1006)`);
      expect(at({ failure: 'refused' })).toBe(`connection to ${WS} refused (ECONNREFUSED)`);
      expect(at({ failure: 'refused', errorCode: 'EACCES' })).toBe(`connection to ${WS} refused (EACCES)`);
      expect(at({ failure: 'http-status', httpStatus: 404 })).toBe(`connection to ${WS} answered HTTP 404 to the websocket upgrade (wrong path?)`);
      expect(at({ failure: 'http-status', httpStatus: 403 })).toContain('(not allowed: credentials, origin or listen key?)');
      expect(at({ failure: 'http-status', httpStatus: 429 })).toContain('(rate limited)');
      expect(at({ failure: 'http-status', httpStatus: 503 })).toContain('(server error)');
      expect(at({ failure: 'http-status', httpStatus: 200 })).toContain('(not a websocket endpoint?)');
      expect(at({ failure: 'http-status', detail: 'Unexpected server response' })).toBe(`connection to ${WS} got an HTTP answer instead of a websocket upgrade (Unexpected server response)`);
      expect(at({ failure: 'dns', errorCode: 'ENOTFOUND' })).toBe(`connection to ${WS} failed: host not found (ENOTFOUND)`);
      expect(at({ failure: 'dns' })).toBe(`connection to ${WS} failed: host not found`);
      expect(at({ failure: 'reset', detail: 'socket hang up' })).toBe(`connection to ${WS} was reset before the websocket opened (socket hang up)`);
      expect(at({ failure: 'timeout' })).toBe(`connection to ${WS} timed out`);
      expect(at({ failure: 'protocol', detail: 'invalid opcode 7' }, 1002)).toBe(`connection to ${WS} closed (code 1002): protocol error: invalid opcode 7`);
      expect(at({ failure: 'network', detail: 'EPIPE' })).toBe(`connection to ${WS} failed: EPIPE (code 1006)`);
      expect(at({ failure: 'closed' })).toMatch(/closed before the websocket opened \(code 1006; no reason given/);
    });

    it('keeps the known details as typed fields', () => {
      const e = new ConnectionClosedError(1006, '', false, { failure: 'http-status', address: WS, httpStatus: 401, errorCode: 'X', detail: 'd' });
      expect(e).toMatchObject({ code: 1006, wasClean: false, failure: 'http-status', address: WS, httpStatus: 401, errorCode: 'X', detail: 'd' });
    });
  });

  it('the small ones carry their numbers', () => {
    expect(new HeartbeatTimeoutError(30000)).toMatchObject({ silentForMs: 30000, message: 'no frame received for 30000 ms' });
    expect(new SendQueueFullError(64)).toMatchObject({ capacity: 64, message: 'send queue full (64 frames waiting for an open socket)' });
    expect(new ConfigError('recvWindow', 'must be a positive integer')).toMatchObject({ option: 'recvWindow', message: 'recvWindow must be a positive integer' });
    expect(new DecodeError('json', 'bad', ['$'], '{')).toMatchObject({ kind: 'json', paths: ['$'], raw: '{' });
  });
});
