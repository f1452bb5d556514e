import { controlAuthorized, isLoopbackHost, resolveControlToken } from '../../lib/simulator/control/controlToken';

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['0.0.0.0', false],
    ['192.168.1.2', false],
    ['127.0.0.2', false],
  ])('%s → %p', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('resolveControlToken', () => {
  it('keeps a given token', () => {
    expect(resolveControlToken('0.0.0.0', 'mine')).toBe('mine');
    expect(resolveControlToken('127.0.0.1', 'mine')).toBe('mine');
  });

  it('needs none on loopback, and makes a fresh random one beyond', () => {
    expect(resolveControlToken('127.0.0.1', undefined)).toBeUndefined();
    expect(resolveControlToken('localhost', '')).toBeUndefined();
    const a = resolveControlToken('0.0.0.0', undefined);
    const b = resolveControlToken('0.0.0.0', '');
    expect(a).toMatch(/^[0-9a-f]{48}$/);
    expect(b).toMatch(/^[0-9a-f]{48}$/);
    expect(a).not.toBe(b);
  });
});

describe('controlAuthorized', () => {
  it('lets everything through without a token', () => {
    expect(controlAuthorized(undefined, {})).toBe(true);
  });

  it('takes the token from X-Sim-Control-Token or a Bearer authorization', () => {
    expect(controlAuthorized('tok', { 'x-sim-control-token': 'tok' })).toBe(true);
    expect(controlAuthorized('tok', { 'x-sim-control-token': ['tok', 'other'] })).toBe(true);
    expect(controlAuthorized('tok', { authorization: 'Bearer tok' })).toBe(true);
    expect(controlAuthorized('tok', { authorization: 'bearer   tok  ' })).toBe(true);
  });

  it.each<[string, Record<string, string | string[] | undefined>]>([
    ['no header', {}],
    ['a wrong token', { 'x-sim-control-token': 'tak' }],
    ['a longer token', { 'x-sim-control-token': 'tok1' }],
    ['a prefix', { 'x-sim-control-token': 'to' }],
    ['another scheme', { authorization: 'Basic tok' }],
    ['a bearer with two words', { authorization: 'Bearer tok extra' }],
    ['the header winning over a right bearer', { 'x-sim-control-token': 'bad', authorization: 'Bearer tok' }],
  ])('refuses %s', (_, headers) => {
    expect(controlAuthorized('tok', headers)).toBe(false);
  });
});
