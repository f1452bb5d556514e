import { manualClock } from '../../lib/simulator/core/clock';
import { mulberry32 } from '../../lib/simulator/core/random';
import { TwoFactor } from '../../lib/simulator/http/twoFactor';

describe('TwoFactor', () => {
  const setup = (ttlMs = 1000) => {
    const clock = manualClock(0);
    return { clock, twoFactor: new TwoFactor(true, clock.now, mulberry32(1), ttlMs) };
  };

  it('issues distinct 32-character tokens', () => {
    const { twoFactor } = setup();
    const a = twoFactor.issue();
    const b = twoFactor.issue();
    expect(a).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(b).not.toBe(a);
  });

  it('accepts a token once, within its time to live (the limit included)', () => {
    const { clock, twoFactor } = setup(1000);
    const token = twoFactor.issue();
    clock.advance(1000);
    expect(twoFactor.consume(token)).toBe(true);
    expect(twoFactor.consume(token)).toBe(false);
  });

  it('refuses an expired token, and a token it never issued', () => {
    const { clock, twoFactor } = setup(1000);
    const token = twoFactor.issue();
    clock.advance(1001);
    expect(twoFactor.consume(token)).toBe(false);
    expect(twoFactor.consume('A'.repeat(32))).toBe(false);
  });

  it('keeps the switch it was given, which can be flipped', () => {
    const off = new TwoFactor(false, () => 0, () => 0, 1);
    expect(off.enabled).toBe(false);
    off.enabled = true;
    expect(off.enabled).toBe(true);
  });
});
