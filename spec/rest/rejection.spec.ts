import { RateLimitedError, RequestRejectedError } from '../../lib/errors';
import {
  BODY_EXCERPT_LENGTH,
  DEFAULT_RETRY_AFTER_418_MS,
  DEFAULT_RETRY_AFTER_429_MS,
  numericCode,
  rejection,
} from '../../lib/rest/rejection';

const SECRET = 'sEcReTkEy0123456789';
const answer = (status: number, text: string, extra: { retryAfter?: string; receivedAt?: number } = {}) => ({
  status,
  text,
  secrets: [SECRET, undefined],
  receivedAt: extra.receivedAt ?? 0,
  ...(extra.retryAfter === undefined ? {} : { retryAfter: extra.retryAfter }),
});

describe('rejection', () => {
  it("takes code and msg from the service's error body (desc when there is no msg)", () => {
    const e = rejection(answer(400, '{"code":-1121,"msg":"Invalid symbol."}'));
    expect(e).toBeInstanceOf(RequestRejectedError);
    expect(e).not.toBeInstanceOf(RateLimitedError);
    expect(e).toMatchObject({ status: 400, code: -1121, msg: 'Invalid symbol.' });
    expect(rejection(answer(404, '{"code":"-100010","desc":"Invalid Symbols!"}'))).toMatchObject({ code: '-100010', msg: 'Invalid Symbols!' });
  });

  it('uses the fallback message when the body has none', () => {
    expect(rejection(answer(401, '{"code":-2015}'), 'listen key refused')).toMatchObject({ code: -2015, msg: 'listen key refused' });
    expect(rejection(answer(500, ''), 'server error')).toMatchObject({ code: undefined, msg: 'server error' });
  });

  it('reduces an HTML page to a short line of its words, scripts and styles dropped', () => {
    const page = '<html><head><style>p{color:red}</style><script>alert(1)</script></head><body><h1>502  Bad\nGateway</h1></body></html>';
    expect(rejection(answer(502, page))).toMatchObject({ status: 502, code: undefined, msg: '502 Bad Gateway' });
    const long = rejection(answer(503, `<p>${'word '.repeat(200)}</p>`));
    expect(long.msg?.endsWith('…')).toBe(true);
    expect(long.msg?.length).toBe(BODY_EXCERPT_LENGTH + 1);
    expect(rejection(answer(500, '<br/>   ')).msg).toBeUndefined();
  });

  it('never carries the secret, in a body, a code or a message, even in part at a cut', () => {
    const errors = [
      rejection(answer(400, `{"code":"${SECRET}","msg":"bad signature ${SECRET}"}`)),
      rejection(answer(502, `<p>${'x'.repeat(BODY_EXCERPT_LENGTH - 5)}${SECRET}</p>`)),
      rejection(answer(400, `not json ${SECRET}`)),
    ];
    for (const e of errors) {
      const text = `${String(e.code)} ${e.msg ?? ''} ${e.message}`;
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(SECRET.slice(0, 8));
    }
  });

  it('gives a RateLimitedError on 429 and 418, waiting as Retry-After says or by the defaults', () => {
    const limited = rejection(answer(429, '{"code":-1003,"msg":"Too many requests"}', { retryAfter: '7' }));
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect(limited).toMatchObject({ status: 429, code: -1003, retryAfterMs: 7000 });
    expect(rejection(answer(429, ''))).toMatchObject({ retryAfterMs: DEFAULT_RETRY_AFTER_429_MS });
    expect(rejection(answer(418, ''))).toMatchObject({ retryAfterMs: DEFAULT_RETRY_AFTER_418_MS });
    expect(rejection(answer(418, '', { retryAfter: 'Thu, 01 Jan 1970 00:00:03 GMT', receivedAt: 1000 }))).toMatchObject({ retryAfterMs: 2000 });
  });
});

describe('numericCode', () => {
  it('reads integer codes sent as numbers or text, else undefined', () => {
    expect(numericCode(-1021)).toBe(-1021);
    expect(numericCode(' -1021 ')).toBe(-1021);
    expect(numericCode('100010')).toBe(100010);
    for (const code of [undefined, '', 'ERR', '-10.5', '1e3']) expect(numericCode(code)).toBeUndefined();
  });
});
