import * as E from 'fp-ts/Either';
import {
  ExecutionReportCodec,
  OutboundAccountInfoCodec,
  PrivateEventCodec,
  TicketInfoCodec,
  decodePrivateFrame,
} from '../../lib/codecs/privateEvents';
import { parseJson } from '../../lib/frame/json';
import { assertDecodes, assertFails } from '../helpers/codecs';

const account = {
  e: 'outboundAccountInfo' as const,
  E: 1499405658849,
  T: true,
  W: true,
  D: true,
  B: [{ a: 'LTC', f: '17366.18538083' as const, l: '0.00000000' as const }],
};

const report = {
  e: 'executionReport' as const,
  E: 1499405658658,
  s: 'ETHBTC',
  c: 1000087761,
  S: 'BUY' as const,
  o: 'LIMIT',
  f: 'GTC',
  q: '1.00000000' as const,
  p: '0.10264410' as const,
  reqAmt: '1000',
  X: 'NEW' as const,
  d: '1234567',
  i: '4293153',
  l: '0.00000000',
  r: '0',
  z: '0.00000000' as const,
  L: '0.00000000',
  V: '10.1',
  n: '0',
  N: null,
  u: true,
  w: true,
  m: false,
  O: 1499405658657,
  U: 1499405658657,
  Z: '0.00000000' as const,
  x: 'USER_CANCEL',
};

const ticket = {
  e: 'ticketInfo' as const,
  E: '1668693440976',
  s: 'BTCUSDT',
  q: '0.001639' as const,
  t: '1668693440899',
  p: '61000.0' as const,
  T: '899062000267837441',
  o: '899048013515737344',
  c: '1621910874883',
  O: '899062000118679808',
  a: '10086',
  A: '0',
  m: true,
  S: 'BUY' as const,
};

describe('OutboundAccountInfoCodec', () => {
  it('decodes an account update', () => {
    assertDecodes(OutboundAccountInfoCodec, account, account);
  });

  it('tolerates text flags and time, needs only e, E and B', () => {
    assertDecodes(
      OutboundAccountInfoCodec,
      { e: 'outboundAccountInfo', E: '1', T: 'false', B: [] },
      { e: 'outboundAccountInfo', E: 1, T: false, B: [] },
    );
  });

  it('reports a bad balance', () => {
    assertFails(OutboundAccountInfoCodec, { ...account, B: [{ a: 'LTC', f: '1' }] }, [
      ': OutboundAccountInfo/B: Array<Balance>/0: Balance/l: DecimalString',
    ]);
  });
});

describe('ExecutionReportCodec', () => {
  it('decodes an order update: numeric ids become text, N stays null', () => {
    assertDecodes(ExecutionReportCodec, report, { ...report, c: '1000087761' });
  });

  it('accepts a text commission asset and leaves out optional fields', () => {
    const { f: _f, reqAmt: _r, d: _d, l: _l, r: _rr, L: _L, V: _V, n: _n, u: _u, w: _w, m: _m, O: _O, U: _U, x: _x, ...core } = report;
    assertDecodes(ExecutionReportCodec, { ...core, N: 'BNB' }, { ...core, c: '1000087761', N: 'BNB' });
  });

  it('reports missing required fields and a status that is not text', () => {
    const { i: _i, z: _z, ...rest } = report;
    assertFails(ExecutionReportCodec, { ...rest, X: 4, N: 5 }, [
      ': ExecutionReport/i: IdFromNumberOrString',
      ': ExecutionReport/X: OrderStatus',
      ': ExecutionReport/z: DecimalString',
      ': ExecutionReport/N: string | null',
    ]);
  });

  it.each(['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'REJECTED'])('accepts status %s', (X) => {
    expect(ExecutionReportCodec.is({ ...report, c: '1', X })).toBe(true);
    assertDecodes(ExecutionReportCodec, { ...report, X }, { ...report, c: '1000087761', X });
  });

  it.each(['EXPIRED', 'PENDING_REPLACE', ''])('keeps a status it does not know (%j) as text', (X) => {
    assertDecodes(ExecutionReportCodec, { ...report, X }, { ...report, c: '1000087761', X });
  });
});

describe('TicketInfoCodec', () => {
  it('decodes a ticket: text times become numbers, ids stay text', () => {
    assertDecodes(TicketInfoCodec, ticket, { ...ticket, E: 1668693440976, t: 1668693440899 });
  });

  it('reports a bad side and a missing ticket id', () => {
    const { T: _T, ...rest } = ticket;
    assertFails(TicketInfoCodec, { ...rest, S: 'buy' }, [
      ': TicketInfo/T: IdFromNumberOrString',
      ': TicketInfo/S: OrderSide',
    ]);
  });
});

describe('PrivateEventCodec', () => {
  it('dispatches on e', () => {
    expect(assertDecodes(PrivateEventCodec, account).e).toBe('outboundAccountInfo');
    expect(assertDecodes(PrivateEventCodec, report).e).toBe('executionReport');
    expect(assertDecodes(PrivateEventCodec, ticket).e).toBe('ticketInfo');
    expect(PrivateEventCodec.is({ ...report, c: '1' })).toBe(true);
    expect(PrivateEventCodec.is(report)).toBe(false);
  });

  it('reports only the failures of the selected codec', () => {
    assertFails(PrivateEventCodec, { ...report, i: null }, [
      ': PrivateEvent/executionReport: ExecutionReport/i: IdFromNumberOrString',
    ]);
  });

  it('decodes an e it does not model as an other event, the element as its raw fields', () => {
    const element = { e: 'balanceUpdate', E: '1', x: [1] };
    expect(assertDecodes(PrivateEventCodec, element)).toStrictEqual({ e: 'other', type: 'balanceUpdate', E: 1, raw: element });
    expect(assertDecodes(PrivateEventCodec, { e: '' })).toStrictEqual({ e: 'other', type: '', raw: { e: '' } });
    // an E that is no integer is left in raw only
    expect(assertDecodes(PrivateEventCodec, { e: 'x', E: 'soon' })).toStrictEqual({ e: 'other', type: 'x', raw: { e: 'x', E: 'soon' } });
    const decoded = assertDecodes(PrivateEventCodec, element);
    expect(PrivateEventCodec.is(decoded)).toBe(true);
    expect(PrivateEventCodec.encode(decoded)).toBe(element);
  });

  it('names a missing or non-text e and its value', () => {
    const lines = assertFails(PrivateEventCodec, { e: 5, E: 1 }, [
      ': PrivateEvent/e: "outboundAccountInfo" | "executionReport" | "ticketInfo" | string',
    ]);
    expect(lines[0]).toContain('5');
    assertFails(PrivateEventCodec, { E: 1 }, [
      ': PrivateEvent/e: "outboundAccountInfo" | "executionReport" | "ticketInfo" | string',
    ]);
  });

  it('rejects a non-object', () => {
    assertFails(PrivateEventCodec, 'executionReport', [': PrivateEvent']);
  });

  it('encodes back to the decoded shape', () => {
    const decoded = assertDecodes(PrivateEventCodec, ticket);
    expect(PrivateEventCodec.encode(decoded)).toStrictEqual(decoded);
  });
});

describe('decodePrivateFrame', () => {
  it('decodes every event of an array frame, in order', () => {
    const results = decodePrivateFrame([account, report, ticket]);
    expect(results.map((r) => (E.isRight(r) ? r.right.e : 'bad'))).toEqual(['outboundAccountInfo', 'executionReport', 'ticketInfo']);
  });

  it('reports a bad element and still delivers the others', () => {
    const results = decodePrivateFrame([report, { E: 1 }, { ...ticket, q: 'x' }, account, { e: 'nope' }]);
    expect(results.map((r) => r._tag)).toEqual(['Right', 'Left', 'Left', 'Right', 'Right']);
    const bad = results[2];
    if (bad === undefined || E.isRight(bad)) throw new Error('expected a Left');
    expect(bad.left.kind).toBe('codec');
    expect(bad.left.paths).toEqual(['Invalid value "x" supplied to : PrivateEvent/ticketInfo: TicketInfo/q: DecimalString']);
    expect(bad.left.raw).toContain('"ticketInfo"');
  });

  it('accepts a single event object', () => {
    const results = decodePrivateFrame(account);
    expect(results).toHaveLength(1);
    expect(E.isRight(results[0]!)).toBe(true);
  });

  it('gives nothing for an empty array', () => {
    expect(decodePrivateFrame([])).toEqual([]);
  });

  it.each([42, 'text', null, undefined, true])('gives one Left for %j', (frame) => {
    const results = decodePrivateFrame(frame);
    expect(results).toHaveLength(1);
    const only = results[0]!;
    if (E.isRight(only)) throw new Error('expected a Left');
    expect(only.left.name).toBe('DecodeError');
    expect(only.left.paths[0]).toMatch(/supplied to : PrivateFrame$/);
  });

  it('keeps 19-digit ids of a bare-number frame exact through parseJson', () => {
    const text =
      '[{"e":"executionReport","E":1668693440976,"s":"BTCUSDT","c":1668693440093,"S":"SELL","o":"LIMIT",' +
      '"q":"0.5","p":"61000","X":"PARTIALLY_FILLED","i":1291488620385157122,"d":1291488620385157123,' +
      '"z":"0.2","Z":"12200","N":null}]';
    const json = parseJson(text);
    if (E.isLeft(json)) throw json.left;
    const [first] = decodePrivateFrame(json.right);
    if (first === undefined || E.isLeft(first) || first.right.e !== 'executionReport') throw new Error('expected a report');
    expect(first.right.i).toBe('1291488620385157122');
    expect(first.right.d).toBe('1291488620385157123');
    expect(first.right.c).toBe('1668693440093');
  });
});
