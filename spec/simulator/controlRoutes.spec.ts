import type { ChaosHandle } from '../../lib/simulator/chaos/chaosTypes';
import { controlHandler } from '../../lib/simulator/control/controlRoutes';
import type { ObservedReport } from '../../lib/simulator/chaos/observedReport';
import type { SentReport } from '../../lib/simulator/chaos/sentReport';
import type { SimulatorControl } from '../../lib/simulator/control/simulatorControl';

const OBSERVED: ObservedReport = { subscriptions: [], cancels: [], pings: [], pongs: [], connections: { public: 1, private: 0 }, accepted: { public: 2, private: 0 } };

/** A control surface that records each call with its arguments. */
function recordingControl() {
  const calls: Array<readonly [string, ...unknown[]]> = [];
  const rec =
    <A extends unknown[], R>(name: string, result: R) =>
    (...args: A): R => {
      calls.push([name, ...args]);
      return result;
    };
  const control: SimulatorControl = {
    drop: rec('drop', undefined),
    stall: rec('stall', undefined),
    resume: rec('resume', undefined),
    halfOpen: rec('halfOpen', 3),
    sendRaw: rec('sendRaw', undefined),
    pushPrivateEvent: rec('pushPrivateEvent', undefined),
    privateChaos: rec('privateChaos', undefined),
    expireListenKey: rec('expireListenKey', true),
    rejectNextRequests: rec('rejectNextRequests', undefined),
    loseNextAnswers: rec('loseNextAnswers', undefined),
    skewClock: rec('skewClock', undefined),
    setTwoFactor: rec('setTwoFactor', undefined),
    issueTwoFactorToken: rec('issueTwoFactorToken', 'tok'),
    injectTrade: rec('injectTrade', undefined),
    step: rec('step', undefined),
    observed: rec('observed', OBSERVED),
    sent: rec('sent', { publicMessages: 4 } as unknown as SentReport),
    startChaos: rec('startChaos', {} as ChaosHandle),
    traffic: rec('traffic', { requests: [], upgrades: [], frames: [] }),
  };
  return { handle: controlHandler(control), calls };
}

const bad = (msg: string) => ({ status: 400, body: { code: -1, msg } });

describe('controlHandler', () => {
  it.each<[string, object, unknown, readonly unknown[]]>([
    ['drop', { stream: 'public' }, {}, ['drop', { stream: 'public', code: undefined, reason: undefined }]],
    ['drop', { stream: 'all', code: 4000, reason: 'bye' }, {}, ['drop', { stream: 'all', code: 4000, reason: 'bye' }]],
    ['stall', { stream: 'private' }, {}, ['stall', { stream: 'private', inbound: 'drop' }]],
    ['stall', { stream: 'private', inbound: 'hold' }, {}, ['stall', { stream: 'private', inbound: 'hold' }]],
    ['halfOpen', { stream: 'public', durationMs: 500 }, { sockets: 3 }, ['halfOpen', { stream: 'public', durationMs: 500 }]],
    ['resume', {}, {}, ['resume']],
    ['sendRaw', { stream: 'public', data: 'hi' }, {}, ['sendRaw', { stream: 'public', data: 'hi' }]],
    ['pushPrivateEvent', { event: '{"e":""}' }, {}, ['pushPrivateEvent', '{"e":""}', { withNext: false }]],
    ['pushPrivateEvent', { event: { e: 'outboundFiatAccountInfo' }, withNext: true }, {}, ['pushPrivateEvent', { e: 'outboundFiatAccountInfo' }, { withNext: true }]],
    ['privateChaos', { duplicateProbability: 0.5 }, {}, ['privateChaos', { duplicateProbability: 0.5, reorderWindowMs: undefined }]],
    ['expireListenKey', {}, { expired: true }, ['expireListenKey']],
    ['rejectNextRequests', { n: 2, status: 503 }, {}, ['rejectNextRequests', 2, { status: 503, code: undefined, msg: undefined }]],
    ['loseNextAnswers', { n: 1 }, {}, ['loseNextAnswers', 1, { mode: 'reset', method: undefined, path: undefined }]],
    ['loseNextAnswers', { n: 2, mode: 'hang', method: 'POST', path: '/api/v1/spot/order' }, {}, ['loseNextAnswers', 2, { mode: 'hang', method: 'POST', path: '/api/v1/spot/order' }]],
    ['loseNextAnswers', { n: 1, mode: 'delay', delayMs: 2500 }, {}, ['loseNextAnswers', 1, { mode: 'delay', delayMs: 2500, method: undefined, path: undefined }]],
    ['loseNextAnswers', { n: 0, mode: 'gateway' }, {}, ['loseNextAnswers', 0, { mode: 'gateway', method: undefined, path: undefined }]],
    ['skewClock', { ms: -1500 }, {}, ['skewClock', -1500]],
    ['setTwoFactor', { enabled: true }, {}, ['setTwoFactor', true]],
    ['setTwoFactor', { enabled: 'yes' }, {}, ['setTwoFactor', false]],
    ['issueTwoFactorToken', {}, { token: 'tok' }, ['issueTwoFactorToken']],
    ['injectTrade', { symbol: 'BTCUSDT', price: '1.5' }, {}, ['injectTrade', { symbol: 'BTCUSDT', price: '1.5', quantity: undefined }]],
    ['step', {}, {}, ['step', undefined]],
    ['step', { n: 10_000 }, {}, ['step', 10_000]],
    ['observed', {}, OBSERVED, ['observed']],
    ['sent', {}, { publicMessages: 4 }, ['sent']],
  ])('%s %j answers 200 and calls the control', (name, body, answer, call) => {
    const { handle, calls } = recordingControl();
    expect(handle(name, JSON.stringify(body))).toEqual({ status: 200, body: answer });
    expect(calls).toEqual([call]);
  });

  it('sends base64 as binary data', () => {
    const { handle, calls } = recordingControl();
    handle('sendRaw', JSON.stringify({ stream: 'all', base64: Buffer.from([1, 2, 255]).toString('base64') }));
    expect(calls).toEqual([['sendRaw', { stream: 'all', data: new Uint8Array([1, 2, 255]) }]]);
  });

  it('reads an empty body, and a body that is not an object, as no arguments', () => {
    const { handle, calls } = recordingControl();
    expect(handle('resume', '  ').status).toBe(200);
    expect(handle('step', '[5]').status).toBe(200);
    expect(calls).toEqual([['resume'], ['step', undefined]]);
  });

  it('answers 404 for an unknown control, and for the ones not served over HTTP', () => {
    const { handle, calls } = recordingControl();
    for (const name of ['nope', 'startChaos', 'traffic']) {
      expect(handle(name, '{}')).toEqual({ status: 404, body: { code: -1020, msg: `Unknown control '${name}'.` } });
    }
    expect(calls).toEqual([]);
  });

  it.each<[string, object, string]>([
    ['drop', {}, "stream must be 'public', 'private' or 'all'"],
    ['drop', { stream: 'both' }, "stream must be 'public', 'private' or 'all'"],
    ['drop', { stream: 'all', code: 999 }, 'code must be an integer in [1000, 4999]'],
    ['drop', { stream: 'all', code: 1000.5 }, 'code must be an integer in [1000, 4999]'],
    ['drop', { stream: 'all', code: 1005 }, 'code must be a sendable close code (1000-1014 but 1004-1006, or 3000-4999)'],
    ['drop', { stream: 'all', code: 2000 }, 'code must be a sendable close code (1000-1014 but 1004-1006, or 3000-4999)'],
    ['drop', { stream: 'all', code: '1000' }, 'code must be a number'],
    ['drop', { stream: 'all', code: 1000, reason: 'é'.repeat(62) }, 'reason must be at most 123 bytes'],
    ['drop', { stream: 'all', reason: 5 }, 'reason must be text'],
    ['halfOpen', { stream: 'all' }, 'durationMs must be a number'],
    ['halfOpen', { stream: 'all', durationMs: 3_600_001 }, 'durationMs must be an integer in [0, 3600000]'],
    ['sendRaw', { stream: 'all' }, 'data (text) or base64 (binary) is required'],
    ['pushPrivateEvent', { event: [1] }, 'event (an object, or the JSON text of one) is required'],
    ['sendRaw', { stream: 'all', data: 1 }, 'data must be text'],
    ['privateChaos', { reorderWindowMs: 'long' }, 'reorderWindowMs must be a number'],
    ['rejectNextRequests', { n: -1 }, 'n must be an integer in [0, 1000000]'],
    ['rejectNextRequests', { n: 1, status: 600 }, 'status must be an integer in [200, 599]'],
    ['rejectNextRequests', { n: 1, msg: {} }, 'msg must be text'],
    ['loseNextAnswers', {}, 'n must be a number'],
    ['loseNextAnswers', { n: 1, mode: 'drop' }, "mode must be 'reset', 'hang', 'delay' or 'gateway'"],
    ['loseNextAnswers', { n: 1, mode: 'delay' }, 'delayMs must be a number'],
    ['loseNextAnswers', { n: 1, mode: 'delay', delayMs: -1 }, 'delayMs must be an integer in [0, 3600000]'],
    ['loseNextAnswers', { n: 1, path: 7 }, 'path must be text'],
    ['skewClock', { ms: null }, 'ms must be a number'],
    ['injectTrade', { symbol: 1 }, 'symbol must be text'],
    ['step', { n: 10_001 }, 'n must be an integer in [0, 10000]'],
  ])('%s %j answers 400: %s', (name, body, msg) => {
    const { handle, calls } = recordingControl();
    expect(handle(name, JSON.stringify(body))).toEqual(bad(msg));
    expect(calls).toEqual([]);
  });

  it('answers 400 for a body that is not JSON', () => {
    const { handle } = recordingControl();
    const answer = handle('resume', '{"');
    expect(answer.status).toBe(400);
    expect((answer.body as { code: number }).code).toBe(-1);
  });

  it('answers 400 with the message of an error the control throws', () => {
    const { handle } = recordingControl();
    const throwing = controlHandler({
      ...({} as SimulatorControl),
      injectTrade: () => {
        throw new Error('injectTrade needs a known symbol');
      },
    });
    expect(throwing('injectTrade', '{}')).toEqual(bad('injectTrade needs a known symbol'));
    expect(handle('injectTrade', '{}').status).toBe(200);
  });
});
