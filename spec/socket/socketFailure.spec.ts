import { ConnectionClosedError } from '../../lib/errors';
import { closedError, displayAddress, transportError, upgradeAnswer } from '../../lib/socket/socketFailure';
import { urlSecrets } from '../../lib/socket/socketSession';

const KEY = 'Lk7Qz0aB9cD8eF7gH6iJ5kL4mN3oP2qR1sT0uV9wX8yZ7aB6cD5eF4gH3iJ2';

/** An error as Node hands it to `ws` (a `code` and a message), inside an `ErrorEvent`-like object. */
const errorEvent = (message: string, code?: string): unknown => ({ type: 'error', error: Object.assign(new Error(message), code ? { code } : {}) });

describe('transportError', () => {
  it.each([
    ['connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED', { failure: 'refused', errorCode: 'ECONNREFUSED' }],
    ['Unexpected server response: 404', undefined, { failure: 'http-status', httpStatus: 404 }],
    ['Unexpected server response: 503', undefined, { failure: 'http-status', httpStatus: 503 }],
    ['getaddrinfo ENOTFOUND nohost.invalid', 'ENOTFOUND', { failure: 'dns', errorCode: 'ENOTFOUND' }],
    ['getaddrinfo EAI_AGAIN example.com', 'EAI_AGAIN', { failure: 'dns', errorCode: 'EAI_AGAIN' }],
    ['socket hang up', 'ECONNRESET', { failure: 'reset', errorCode: 'ECONNRESET' }],
    ['connect ETIMEDOUT 10.0.0.1:443', 'ETIMEDOUT', { failure: 'timeout', errorCode: 'ETIMEDOUT' }],
    ['Opening handshake has timed out', undefined, { failure: 'timeout' }],
    ['Invalid opcode 3', 'WS_ERR_INVALID_OPCODE', { failure: 'protocol', errorCode: 'WS_ERR_INVALID_OPCODE' }],
    ['connect EHOSTUNREACH 10.0.0.1:443', 'EHOSTUNREACH', { failure: 'network', errorCode: 'EHOSTUNREACH' }],
    ['unable to verify the first certificate', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', { failure: 'network', errorCode: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }],
  ])('%s (%s)', (message, code, expected) => {
    expect(transportError(errorEvent(message, code), [])).toEqual({ ...expected, detail: message });
  });

  it('reads nothing from a browser error event (no error inside) and never throws on odd events', () => {
    expect(transportError({ type: 'error' }, [])).toBeUndefined();
    expect(transportError(undefined, [])).toBeUndefined();
    expect(transportError(null, [])).toBeUndefined();
    expect(transportError({ error: 'text' }, [])).toBeUndefined();
    const hostile = Object.defineProperty({}, 'error', { get: () => { throw new Error('boom'); } });
    expect(transportError(hostile, [])).toEqual({ failure: 'network', detail: 'unreadable error event' });
  });

  it('redacts the key and cuts long words; ignores a code that is not an error code', () => {
    const long = `Invalid URL: ws://h/api/v1/ws/${KEY} ${'x'.repeat(400)}`;
    const t = transportError(errorEvent(long, 'not a code; rm -rf'), urlSecrets(`ws://h/api/v1/ws/${KEY}`));
    expect(t?.errorCode).toBeUndefined();
    expect(t?.detail).not.toContain(KEY.slice(0, 12));
    expect(t?.detail.length).toBeLessThanOrEqual(201);
  });
});

describe('displayAddress', () => {
  it.each([
    ['ws://127.0.0.1:1234/quote/ws/v1', 'ws://127.0.0.1:1234/quote/ws/v1'],
    [`ws://127.0.0.1:1234/api/v1/ws/${KEY}`, 'ws://127.0.0.1:1234/api/v1/ws/***'],
    [`wss://stream.example.com/api/v1/ws/${encodeURIComponent('k/ey+')}?x=1`, 'wss://stream.example.com/api/v1/ws/***?x=1'],
    ['ws://127.0.0.1:1234/api/v1/ws/{listenKey}', 'ws://127.0.0.1:1234/api/v1/ws/***'],
    ['wss://user:secret@example.com/quote/ws/v1', 'wss://example.com/quote/ws/v1'],
    [`wss://example.com/stream?listenKey=${KEY}`, 'wss://example.com/stream?listenKey=***'],
    [`wss://example.com/stream/${KEY}`, 'wss://example.com/stream/***'],
  ])('%s -> %s', (url, shown) => {
    expect(displayAddress(url, urlSecrets(url))).toBe(shown);
  });
});

describe('upgradeAnswer', () => {
  const answer = (statusCode: unknown, headers: Record<string, unknown> = {}): unknown => ({ statusCode, headers });
  const status = (httpStatus: number) => ({ failure: 'http-status', httpStatus, detail: `Unexpected server response: ${httpStatus}` });

  it('keeps the status, and the wait of Retry-After in seconds', () => {
    expect(upgradeAnswer(answer(429, { 'retry-after': '5' }), 0)).toEqual({ ...status(429), retryAfterMs: 5000 });
    expect(upgradeAnswer(answer(503, { 'retry-after': '0.25' }), 0)).toEqual({ ...status(503), retryAfterMs: 250 });
  });

  it('reads an HTTP date relative to the scheduler time of the answer', () => {
    const at = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(upgradeAnswer(answer(503, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), at - 7000)).toEqual({ ...status(503), retryAfterMs: 7000 });
  });

  it('has no wait without a readable Retry-After', () => {
    for (const header of [undefined, '', 'soon', '-5', ['5'], 5]) {
      expect(upgradeAnswer(answer(429, header === undefined ? {} : { 'retry-after': header }), 0)).toEqual(status(429));
    }
    expect(upgradeAnswer({ statusCode: 404 }, 0)).toEqual(status(404));
  });

  it('is undefined without a status, and never throws on odd answers', () => {
    for (const odd of [undefined, null, {}, 'x', answer('429'), answer(4.5), answer(-1), answer(1e6)]) expect(upgradeAnswer(odd, 0)).toBeUndefined();
    const hostile = Object.defineProperty({ statusCode: 429 }, 'headers', {
      get: () => {
        throw new Error('boom');
      },
    });
    expect(upgradeAnswer(hostile, 0)).toBeUndefined();
  });
});

describe('closedError', () => {
  const address = 'ws://127.0.0.1:9/quote/ws/v1';
  it('an open socket closed by the peer, without a transport error: the plain error (the peer said why)', () => {
    const e = closedError({ code: 4001, reason: 'x', wasClean: true }, 'invalid listen key', true, undefined, address);
    expect(e).toEqual(new ConnectionClosedError(4001, 'invalid listen key', true));
    expect(Object.keys(e)).not.toContain('failure');
  });

  it('a socket that never opened: closed, with the address', () => {
    const e = closedError({ code: 1006, reason: '', wasClean: false }, '', false, undefined, address);
    expect(e).toMatchObject({ code: 1006, failure: 'closed', address });
  });

  it('a transport error wins, open or not', () => {
    const transport = { failure: 'protocol', errorCode: 'WS_ERR_INVALID_OPCODE', detail: 'Invalid opcode 3' } as const;
    const e = closedError({ code: 1006, reason: '', wasClean: false }, '', true, transport, address);
    expect(e).toMatchObject({ failure: 'protocol', errorCode: 'WS_ERR_INVALID_OPCODE', address });
    expect(e.message).toBe(`connection to ${address} closed (code 1006): protocol error: Invalid opcode 3`);
  });
});

describe('ConnectionClosedError', () => {
  const to = 'connection to ws://h:1/p';
  const message = (details: ConstructorParameters<typeof ConnectionClosedError>[3]): string =>
    new ConnectionClosedError(1006, '', false, { address: 'ws://h:1/p', ...details }).message;

  it('keeps the three-argument form: same message, no extra fields', () => {
    const e = new ConnectionClosedError(4001, 'invalid listen key', true);
    expect(e.message).toBe('connection closed (code 4001, invalid listen key)');
    expect(Object.keys(e).sort()).toEqual(['code', 'name', 'reason', 'wasClean']);
    expect(new ConnectionClosedError(1006, '', false, {}).message).toBe('connection closed (code 1006)');
  });

  it('says what failed, plainly', () => {
    expect(message({ failure: 'refused', errorCode: 'ECONNREFUSED' })).toBe(`${to} refused (ECONNREFUSED)`);
    expect(message({ failure: 'http-status', httpStatus: 404 })).toBe(`${to} answered HTTP 404 to the websocket upgrade (wrong path?)`);
    expect(message({ failure: 'http-status', httpStatus: 429, retryAfterMs: 5000 })).toBe(
      `${to} answered HTTP 429 to the websocket upgrade (rate limited), retry after 5000 ms`,
    );
    expect(message({ failure: 'http-status', httpStatus: 401 })).toMatch(/HTTP 401 .* \(not allowed/);
    expect(message({ failure: 'http-status', httpStatus: 502 })).toMatch(/HTTP 502 .* \(server error\)$/);
    expect(message({ failure: 'dns', errorCode: 'ENOTFOUND' })).toBe(`${to} failed: host not found (ENOTFOUND)`);
    expect(message({ failure: 'reset', detail: 'socket hang up' })).toBe(`${to} was reset before the websocket opened (socket hang up)`);
    expect(message({ failure: 'timeout', detail: 'Opening handshake has timed out' })).toBe(`${to} timed out (Opening handshake has timed out)`);
    expect(message({ failure: 'network', detail: 'connect EHOSTUNREACH 10.0.0.1:443' })).toBe(
      `${to} failed: connect EHOSTUNREACH 10.0.0.1:443 (code 1006)`,
    );
    expect(message({ failure: 'closed' })).toMatch(/^connection to ws:\/\/h:1\/p closed before the websocket opened \(code 1006; /);
    expect(message({})).toBe(`${to} closed (code 1006)`);
  });
});
