import type { HttpAnswer } from './httpApi';
import type { SimulatorControl } from './simulatorControl';
import type { StreamSelector } from './streamKind';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const stream = (v: unknown): StreamSelector => {
  if (v === 'public' || v === 'private' || v === 'all') return v;
  throw new Error("stream must be 'public', 'private' or 'all'");
};
const num = (v: unknown, name: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${name} must be a number`);
  return v;
};
const optNum = (v: unknown, name: string): number | undefined => (v === undefined ? undefined : num(v, name));
const optStr = (v: unknown, name: string): string | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new Error(`${name} must be text`);
  return v;
};

/**
 * The control surface over HTTP: `POST /__control/<name>` with a JSON body (GET works for `observed` and
 * `sent`). Bad arguments answer 400 `{ code: -1, msg }`.
 * @internal
 */
export function controlHandler(control: SimulatorControl): (name: string, bodyText: string) => HttpAnswer {
  const run = (name: string, b: Record<string, unknown>): unknown => {
    switch (name) {
      case 'drop':
        control.drop({ stream: stream(b.stream), code: optNum(b.code, 'code'), reason: optStr(b.reason, 'reason') });
        return {};
      case 'stall':
        control.stall({ stream: stream(b.stream), inbound: b.inbound === 'hold' ? 'hold' : 'drop' });
        return {};
      case 'resume':
        control.resume();
        return {};
      case 'sendRaw': {
        const base64 = optStr(b.base64, 'base64');
        const data = base64 !== undefined ? new Uint8Array(Buffer.from(base64, 'base64')) : optStr(b.data, 'data');
        if (data === undefined) throw new Error('data (text) or base64 (binary) is required');
        control.sendRaw({ stream: stream(b.stream), data });
        return {};
      }
      case 'privateChaos':
        control.privateChaos({
          duplicateProbability: optNum(b.duplicateProbability, 'duplicateProbability'),
          reorderWindowMs: optNum(b.reorderWindowMs, 'reorderWindowMs'),
        });
        return {};
      case 'expireListenKey':
        return { expired: control.expireListenKey() };
      case 'rejectNextRequests':
        control.rejectNextRequests(num(b.n, 'n'), { status: optNum(b.status, 'status'), code: optNum(b.code, 'code'), msg: optStr(b.msg, 'msg') });
        return {};
      case 'skewClock':
        control.skewClock(num(b.ms, 'ms'));
        return {};
      case 'setTwoFactor':
        control.setTwoFactor(b.enabled === true);
        return {};
      case 'issueTwoFactorToken':
        return { token: control.issueTwoFactorToken() };
      case 'injectTrade':
        control.injectTrade({ symbol: String(b.symbol), price: String(b.price), quantity: optStr(b.quantity, 'quantity') });
        return {};
      case 'step':
        control.step(optNum(b.n, 'n'));
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
