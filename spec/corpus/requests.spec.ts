import fc from 'fast-check';
import { firstValueFrom } from 'rxjs';
import { ConfigError, RequestRejectedError } from '../../lib/errors';
import { restClient } from '../../lib/rest/restClient';
import { startSimulator, type Simulator } from '../../lib/simulator';

/** Parameter text full of the characters form encoding must get right. */
const awkward = fc.oneof(
  fc.constantFrom('&', '=', '+', '%', ' ', '%20', 'a&b=c', '100%', '1+1=2', 'naïve café', '日本語', '😀', '\u00a0', 'x'.repeat(300)),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.stringMatching(/^[&=+% a-z]{1,12}$/),
);
const name = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,10}$/).filter((n) => !['timestamp', 'recvWindow', 'signature', 'listenKey'].includes(n));

describe('restClient request side (bad-input corpus, real HTTP to the simulator)', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, recordTraffic: true });
  });
  afterAll(() => sim.close());

  it('parameters with &, =, +, %, spaces and unicode, in the query or the body: the simulator verifies the signature', async () => {
    const rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.tuple(name, awkward), { minLength: 1, maxLength: 4, selector: ([n]) => n }), fc.boolean(), async (params, inBody) => {
        const request = inBody
          ? rest.request({ method: 'POST', path: '/api/v1/account/withdraw', security: 'USER_DATA', body: params })
          : rest.request({ method: 'GET', path: '/api/v1/account', security: 'USER_DATA', query: params });
        await expect(firstValueFrom(request)).resolves.toBeDefined();
      }),
      { numRuns: 60 },
    );
  });

  it.each([0, -1, 1.5, NaN, Infinity, 2 ** 60, -5000])('recvWindow %p: a ConfigError before anything is sent', (recvWindow) => {
    const sent = sim.traffic().requests.length;
    expect(() => restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey, recvWindow })).toThrow(ConfigError);
    expect(sim.traffic().requests.length).toBe(sent);
  });

  it.each([1, 5000, 60_000, 9_007_199_254_740_991])('recvWindow %p: a request the simulator verifies and accepts', async (recvWindow) => {
    const rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey, recvWindow });
    const sent = sim.traffic().requests.length;
    const answer = firstValueFrom(rest.request({ method: 'GET', path: '/api/v1/account', security: 'USER_DATA' }));
    if (recvWindow === 1) {
      // 1 ms leaves no time for the trip: accepted or refused with the time-window error, never a bad signature.
      const outcome = await answer.then(() => 'ok', (e: unknown) => e);
      if (outcome !== 'ok') expect(outcome).toEqual(expect.objectContaining({ name: 'RequestRejectedError', code: -1021 }));
    } else {
      await expect(answer).resolves.toMatchObject({ userId: expect.any(String) });
    }
    const signedCalls = sim.traffic().requests.slice(sent).filter((r) => new URL(r.url, sim.baseUrl).pathname !== '/api/v1/time'); // the client learns the clock first
    const windows = signedCalls.map((r) => new URL(r.url, sim.baseUrl).searchParams.get('recvWindow'));
    // A -1021 answer (possible with 1 ms) makes the client learn the clock again and send the call once more.
    expect(windows).toEqual(recvWindow === 1 && windows.length === 2 ? ['1', '1'] : [String(recvWindow)]);
  });

  it.each(['TRADE', 'USER_DATA', 'USER_STREAM'] as const)('missing secret, %s call: a clear ConfigError and nothing reaches the simulator', async (security) => {
    const rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
    const sent = sim.traffic().requests.length;
    const call = security === 'USER_STREAM' ? rest.createListenKey() : rest.request({ method: 'GET', path: '/api/v1/account', security });
    const error = await firstValueFrom(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).option).toBe('secretKey');
    expect(sim.traffic().requests.length).toBe(sent);
  });

  it('an empty secret is refused at once; a wrong secret is rejected by the simulator as a bad signature', async () => {
    expect(() => restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: '' })).toThrow(ConfigError);
    const wrong = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: 'not-the-secret' });
    const error = await firstValueFrom(wrong.request({ method: 'GET', path: '/api/v1/account', security: 'USER_DATA' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error).toMatchObject({ status: 401, code: -1022 });
  });
});
