import { manualClock } from '../../lib/simulator/core/clock';
import { rejections } from '../../lib/simulator/http/httpErrors';
import { RateLimiter } from '../../lib/simulator/http/rateLimit';

describe('RateLimiter', () => {
  it('lets maxRequests through per window and client, then answers 429 with the wait to the window end', () => {
    const clock = manualClock(0);
    const limiter = new RateLimiter({ maxRequests: 2, windowMs: 3000 }, clock.now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('b')]).toEqual([undefined, undefined, undefined]);
    clock.advance(500);
    expect(limiter.take('a')).toEqual({ rejection: rejections.tooManyRequests, retryAfterS: 3 });
    clock.advance(2000);
    expect(limiter.take('a')).toEqual({ rejection: rejections.tooManyRequests, retryAfterS: 1 });
    clock.advance(500);
    expect(limiter.take('a')).toBeUndefined();
  });

  it('bans a client limited more than banAfter times in a row, for banMs', () => {
    const clock = manualClock(0);
    const limiter = new RateLimiter({ maxRequests: 1, windowMs: 1000, banAfter: 2, banMs: 5000 }, clock.now);
    limiter.take('a');
    expect(limiter.take('a')?.rejection).toBe(rejections.tooManyRequests);
    expect(limiter.take('a')?.rejection).toBe(rejections.tooManyRequests);
    expect(limiter.take('a')).toEqual({ rejection: rejections.banned, retryAfterS: 5 });
    clock.advance(2500);
    expect(limiter.take('a')).toEqual({ rejection: rejections.banned, retryAfterS: 3 });
    expect(limiter.take('b')).toBeUndefined();
    clock.advance(2500);
    expect(limiter.take('a')).toBeUndefined();
  });

  it('forgives the 429s once a request gets through', () => {
    const clock = manualClock(0);
    const limiter = new RateLimiter({ maxRequests: 1, windowMs: 1000, banAfter: 1 }, clock.now);
    limiter.take('a');
    expect(limiter.take('a')?.rejection).toBe(rejections.tooManyRequests);
    clock.advance(1000);
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('a')?.rejection).toBe(rejections.tooManyRequests);
  });

  it('defaults to one-second windows, a ban after 5 limited requests, for a minute', () => {
    const clock = manualClock(0);
    const limiter = new RateLimiter({ maxRequests: 0 }, clock.now);
    const answers = Array.from({ length: 6 }, () => limiter.take('a'));
    expect(answers.map((a) => a?.rejection.status)).toEqual([429, 429, 429, 429, 429, 418]);
    expect(answers[5]?.retryAfterS).toBe(60);
  });

  it('keeps serving new clients past ten thousand (old ones are pruned)', () => {
    const clock = manualClock(0);
    const limiter = new RateLimiter({ maxRequests: 1, windowMs: 1000 }, clock.now);
    for (let i = 0; i < 10_000; i++) limiter.take(`c${i}`);
    clock.advance(1000);
    expect(limiter.take('new')).toBeUndefined();
    expect(limiter.take('c0')).toBeUndefined();
  });
});
