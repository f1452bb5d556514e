import { retryAfterMs } from '../../lib/internal/retryAfter';

describe('retryAfterMs', () => {
  it('reads delay-seconds, whole or fractional, rounded up to a millisecond', () => {
    expect(retryAfterMs('30', 0)).toBe(30_000);
    expect(retryAfterMs(' 1.5 ', 0)).toBe(1500);
    expect(retryAfterMs('0.0004', 0)).toBe(1);
    expect(retryAfterMs('0', 5)).toBe(0);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    const at = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', at - 2500)).toBe(2500);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', at + 1000)).toBe(0);
  });

  it('is undefined when absent or unreadable (negative, exponent, text)', () => {
    for (const value of [undefined, '', 'soon', '-5', '1e3', 'tomorrow']) expect(retryAfterMs(value, 0)).toBeUndefined();
  });
});
