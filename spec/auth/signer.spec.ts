import { createHmac } from 'node:crypto';
import { firstValueFrom, lastValueFrom, VirtualTimeScheduler } from 'rxjs';
import { signer } from '../../lib/auth/signer';
import { ConfigError } from '../../lib/errors';
import { PUBLISHED } from './vectors';

const clockAt = (ms: number): VirtualTimeScheduler => {
  const scheduler = new VirtualTimeScheduler();
  scheduler.frame = ms;
  return scheduler;
};
const T = 1499827319559;
const order = { symbol: 'LTCBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '0.1' };

describe('signer', () => {
  const sign = signer({ secretKey: PUBLISHED.secret, scheduler: clockAt(T) });

  it('signs query-only requests like the published vector, signature last', async () => {
    const signed = await firstValueFrom(sign({ query: order }));
    expect(signed).toEqual({
      query: `${PUBLISHED.message}&signature=${PUBLISHED.signature}`,
      body: undefined,
      timestamp: T,
      signature: PUBLISHED.signature,
    });
  });

  it('puts the signing parameters in the body when there is one (body-only vector)', async () => {
    const signed = await firstValueFrom(sign({ body: order }));
    expect(signed.query).toBe('');
    expect(signed.body).toBe(`${PUBLISHED.message}&signature=${PUBLISHED.signature}`);
  });

  it('signs query + body with no separator (split vector)', async () => {
    const signed = await firstValueFrom(
      sign({
        query: [['symbol', 'LTCBTC'], ['side', 'BUY'], ['type', 'LIMIT'], ['timeInForce', 'GTC']],
        body: [['quantity', '1'], ['price', '0.1']],
      }),
    );
    expect(signed.query).toBe(PUBLISHED.splitQuery);
    expect(signed.body).toBe(`${PUBLISHED.splitBody}&signature=${PUBLISHED.splitSignature}`);
    expect(signed.signature).toBe(PUBLISHED.splitSignature);
  });

  it('signs an empty body part when body is given empty, and the query when nothing is given', async () => {
    await expect(firstValueFrom(sign({ body: {} }))).resolves.toMatchObject({
      query: '',
      body: expect.stringMatching(/^recvWindow=5000&timestamp=1499827319559&signature=[0-9a-f]{64}$/),
    });
    await expect(firstValueFrom(sign({}))).resolves.toMatchObject({
      query: expect.stringMatching(/^recvWindow=5000&timestamp=1499827319559&signature=[0-9a-f]{64}$/),
      body: undefined,
    });
  });

  it('signs exactly the encoded bytes it returns (special and non-ASCII values)', async () => {
    const messages: string[] = [];
    const custom = signer({ sign: (m) => (messages.push(m), 'deadbeef'), scheduler: clockAt(T), recvWindow: 3000 });
    const signed = await firstValueFrom(custom({ query: { note: 'a b&c=d+e%f' }, body: { name: 'é日本💹' } }));
    expect(messages).toEqual([
      'note=a+b%26c%3Dd%2Be%25f' + 'name=%C3%A9%E6%97%A5%E6%9C%AC%F0%9F%92%B9&recvWindow=3000&timestamp=1499827319559',
    ]);
    expect(signed.query + signed.body).toBe(`${messages[0]}&signature=deadbeef`);
    const own = await firstValueFrom(signer({ secretKey: 'k', scheduler: clockAt(T) })({ query: { note: 'a b&c=d+e%f' }, body: { name: 'é日本💹' } }));
    const signedText = own.query + (own.body ?? '').replace(/&signature=.*$/, '');
    expect(own.signature).toBe(createHmac('sha256', 'k').update(signedText).digest('hex'));
  });

  it('accepts an async custom sign function', async () => {
    const custom = signer({ sign: async () => 'ABCDEF', scheduler: clockAt(T) });
    await expect(firstValueFrom(custom({}))).resolves.toMatchObject({ signature: 'ABCDEF' });
  });

  it('reads the clock and the server-time offset at each subscription', async () => {
    const scheduler = clockAt(1000);
    let offset = 250.7;
    const signed$ = signer({ sign: () => 'x', scheduler, serverTimeOffsetMs: () => offset })({});
    await expect(lastValueFrom(signed$)).resolves.toMatchObject({ timestamp: 1250, query: 'recvWindow=5000&timestamp=1250&signature=x' });
    scheduler.frame = 2000;
    offset = -300;
    await expect(lastValueFrom(signed$)).resolves.toMatchObject({ timestamp: 1700 });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects recvWindow %p with a ConfigError', (recvWindow) => {
    expect(() => signer({ secretKey: 's', recvWindow })).toThrow(ConfigError);
    expect(() => signer({ secretKey: 's', recvWindow })).toThrow(/^recvWindow must be a positive integer/);
  });

  it('requires a non-empty secret or a sign function, not both', () => {
    expect(() => signer({})).toThrow(ConfigError);
    expect(() => signer({ secretKey: '' })).toThrow('secretKey must be a non-empty string');
    expect(() => signer({ secretKey: 's', sign: () => 'x' })).toThrow(ConfigError);
  });

  it.each(['timestamp', 'recvWindow', 'signature'])('errors with a ConfigError when a request carries %s itself', async (name) => {
    await expect(firstValueFrom(sign({ query: { [name]: '1' } }))).rejects.toThrow(new ConfigError(`query.${name}`, 'is added by the signer and must not be passed'));
    await expect(firstValueFrom(sign({ body: [[name, '1']] }))).rejects.toBeInstanceOf(ConfigError);
  });

  it('errors with a ConfigError when a custom sign function returns no text', async () => {
    const bad = signer({ sign: () => '' });
    await expect(firstValueFrom(bad({}))).rejects.toThrow('sign must return a non-empty string');
  });
});
