import type { LoseAnswersOptions } from './controlOptions';
import type { HttpAnswer } from '../http/httpApi';
import type { SimulatorControl } from './simulatorControl';
import type { StreamSelector } from '../streams/streamKind';

import { isRecord } from '../../internal/guards';

const stream = (v: unknown): StreamSelector => {
  if (v === 'public' || v === 'private' || v === 'all') return v;
  throw new Error("stream must be 'public', 'private' or 'all'");
};
const num = (v: unknown, name: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${name} must be a number`);
  return v;
};
const optNum = (v: unknown, name: string): number | undefined => (v === undefined ? undefined : num(v, name));
const intIn = (v: unknown, name: string, min: number, max: number): number => {
  const n = num(v, name);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer in [${min}, ${max}]`);
  return n;
};
/** A close code `ws` can send: 1000, 1001-1014 but the reserved 1004-1006, or 3000-4999. */
const closeCode = (v: unknown): number | undefined => {
  if (v === undefined) return undefined;
  const n = intIn(v, 'code', 1000, 4999);
  if ((n > 1014 && n < 3000) || n === 1004 || n === 1005 || n === 1006) throw new Error('code must be a sendable close code (1000-1014 but 1004-1006, or 3000-4999)');
  return n;
};
const reasonText = (v: unknown): string | undefined => {
  const r = optStr(v, 'reason');
  if (r !== undefined && Buffer.byteLength(r) > 123) throw new Error('reason must be at most 123 bytes');
  return r;
};
const optStr = (v: unknown, name: string): string | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new Error(`${name} must be text`);
  return v;
};

/** `loseNextAnswers`'s options from a JSON body: `mode` (default 'reset'), `delayMs` for 'delay', `method`, `path`. */
const loseOptions = (b: Record<string, unknown>): LoseAnswersOptions => {
  const only = { method: optStr(b['method'], 'method'), path: optStr(b['path'], 'path') };
  const mode = b['mode'] ?? 'reset';
  if (mode === 'delay') return { mode, delayMs: intIn(b['delayMs'], 'delayMs', 0, 3_600_000), ...only };
  if (mode === 'reset' || mode === 'hang' || mode === 'gateway') return { mode, ...only };
  throw new Error("mode must be 'reset', 'hang', 'delay' or 'gateway'");
};

/** Most market steps one `step` control call runs (each is a full market move). */
const MAX_STEPS = 10_000;

/**
 * The control surface over HTTP: `POST /__control/<name>` with a JSON body (GET works for `observed` and
 * `sent`). Bad arguments answer 400 `{ code: -1, msg }`.
 * @internal
 */
export function controlHandler(control: SimulatorControl): (name: string, bodyText: string) => HttpAnswer {
  const run = (name: string, b: Record<string, unknown>): unknown => {
    switch (name) {
      case 'drop':
        control.drop({ stream: stream(b['stream']), code: closeCode(b['code']), reason: reasonText(b['reason']) });
        return {};
      case 'stall':
        control.stall({ stream: stream(b['stream']), inbound: b['inbound'] === 'hold' ? 'hold' : 'drop' });
        return {};
      case 'halfOpen':
        return { sockets: control.halfOpen({ stream: stream(b['stream']), durationMs: intIn(b['durationMs'], 'durationMs', 0, 3_600_000) }) };
      case 'resume':
        control.resume();
        return {};
      case 'sendRaw': {
        const base64 = optStr(b['base64'], 'base64');
        const data = base64 !== undefined ? new Uint8Array(Buffer.from(base64, 'base64')) : optStr(b['data'], 'data');
        if (data === undefined) throw new Error('data (text) or base64 (binary) is required');
        control.sendRaw({ stream: stream(b['stream']), data });
        return {};
      }
      case 'pushPrivateEvent': {
        // `event`: the element (an object) or its exact JSON text; `withNext`: goes out with the next operation's events.
        const event = b['event'];
        if (typeof event !== 'string' && (typeof event !== 'object' || event === null || Array.isArray(event))) {
          throw new Error('event (an object, or the JSON text of one) is required');
        }
        control.pushPrivateEvent(event as Record<string, unknown> | string, { withNext: b['withNext'] === true });
        return {};
      }
      case 'privateChaos':
        control.privateChaos({
          duplicateProbability: optNum(b['duplicateProbability'], 'duplicateProbability'),
          reorderWindowMs: optNum(b['reorderWindowMs'], 'reorderWindowMs'),
        });
        return {};
      case 'expireListenKey':
        return { expired: control.expireListenKey() };
      case 'rejectNextRequests':
        control.rejectNextRequests(intIn(b['n'], 'n', 0, 1_000_000), {
          status: b['status'] === undefined ? undefined : intIn(b['status'], 'status', 200, 599),
          code: optNum(b['code'], 'code'),
          msg: optStr(b['msg'], 'msg'),
        });
        return {};
      case 'loseNextAnswers':
        control.loseNextAnswers(intIn(b['n'], 'n', 0, 1_000_000), loseOptions(b));
        return {};
      case 'skewClock':
        control.skewClock(num(b['ms'], 'ms'));
        return {};
      case 'setTwoFactor':
        control.setTwoFactor(b['enabled'] === true);
        return {};
      case 'issueTwoFactorToken':
        return { token: control.issueTwoFactorToken() };
      case 'injectTrade':
        control.injectTrade({ symbol: optStr(b['symbol'], 'symbol') ?? '', price: optStr(b['price'], 'price') ?? '', quantity: optStr(b['quantity'], 'quantity') });
        return {};
      case 'step':
        control.step(b['n'] === undefined ? undefined : intIn(b['n'], 'n', 0, MAX_STEPS));
        return {};
      case 'observed':
        return control.observed();
      case 'sent':
        return control.sent();
      default:
        return undefined;
    }
  };
  return (name, bodyText) => {
    try {
      const body: unknown = bodyText.trim() === '' ? {} : JSON.parse(bodyText);
      const result = run(name, isRecord(body) ? body : {});
      return result === undefined ? { status: 404, body: { code: -1020, msg: `Unknown control '${name}'.` } } : { status: 200, body: result };
    } catch (e) {
      return { status: 400, body: { code: -1, msg: e instanceof Error ? e.message : String(e) } };
    }
  };
}
