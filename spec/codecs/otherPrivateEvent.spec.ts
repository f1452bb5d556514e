import * as E from 'fp-ts/Either';
import { ExecutionReportCodec, OutboundAccountInfoCodec, PrivateEventCodec, decodePrivateFrame } from '../../lib/codecs/privateEvents';
import { OtherPrivateEventCodec } from '../../lib/codecs/otherPrivateEvent';
import { parseJson } from '../../lib/frame/json';
import { assertDecodes, assertFails } from '../helpers/codecs';

/*
 * Private stream payloads HashKey sends beyond the SPEC, transcribed (values as recorded, comments dropped) from:
 * - ccxt, `ts/src/pro/hashkey.ts` (github.com/ccxt/ccxt; "HashKey Global", the comments of `handleOrder`,
 *   `handleMyTrade`, `handlePosition` and `handleBalance`, which cite
 *   https://hashkeyglobal-apidoc.readme.io/reference/websocket-api#private-stream): frames recorded from the venue;
 * - HashKey's own event list as a connector names it (StockSharp's HashKey connector, `HashKeyPrivateEventTypes`):
 *   `outboundAccountInfo`, `outboundContractAccountInfo`, `outboundCustodyAccountInfo`, `outboundFiatAccountInfo`,
 *   `outboundOptAccountInfo`, `executionReport`, `contractExecutionReport`, `ticketInfo`,
 *   `outboundContractPositionInfo`. No payload of the custody, fiat and option updates was found: they are written
 *   here in the shape of the account update they are named after (an assumption, marked as such).
 */

/** ccxt `handleOrder` (swap): a contract order's report. Its side `BUY_OPEN` is no spot side: not an `executionReport`. */
const contractExecutionReport = String.raw`{"e":"contractExecutionReport","E":"1723037391181","s":"ETHUSDT-PERPETUAL","c":"1723037389677","S":"BUY_OPEN","o":"LIMIT","f":"IOC","q":"1","p":"2561.75","X":"FILLED","i":"1747358716129257216","l":"1","z":"1","L":"2463.36","n":"0.001478016","N":"USDT","u":true,"w":true,"m":false,"O":"1723037391140","Z":"2463.36","C":false,"v":"5","reqAmt":"0","d":"1747358716255075840","r":"0","V":"2463.36","P":"0","lo":false,"lt":""}`;

/** ccxt `handlePosition`: a contract position update. */
const contractPosition = String.raw`{"e":"outboundContractPositionInfo","E":"1723084699801","A":"1735619524953226496","s":"ETHUSDT-PERPETUAL","S":"LONG","p":"2429.6","P":"2","a":"2","f":"10760.14","m":"1.0085","r":"-0.0029","up":"0.0478","pr":"0.0492","pv":"4.8592","v":"5.00","mt":"CROSS","mm":"0.0367"}`;

/** ccxt `handleBalance`: a contract account update, its balance with `r` ("to be released") empty. */
const contractAccount = String.raw`{"e":"outboundContractAccountInfo","E":"1714717314118","T":true,"W":true,"D":true,"B":[{"a":"USDT","f":"474960.65","l":"24835.178056020383226869","r":""}]}`;

/** ccxt `handleMyTrade`: a ticket (a known event, for a frame that mixes kinds). */
const ticket = String.raw`{"e":"ticketInfo","E":"1723037391156","s":"ETHUSDT-PERPETUAL","q":"1.00","t":"1723037391147","p":"2463.36","T":"1747358716187197441","o":"1747358716129257216","c":"1723037389677","a":"1735619524953226496","m":false,"S":"BUY"}`;

/** Assumed shape (see above): a custody account update, named in HashKey's event list. */
const custodyAccount = String.raw`{"e":"outboundCustodyAccountInfo","E":"1714717314118","T":true,"W":true,"D":true,"B":[{"a":"BTC","f":"0.5","l":"0"}]}`;
/** Assumed shape (see above): a fiat account update, named in HashKey's event list. */
const fiatAccount = String.raw`{"e":"outboundFiatAccountInfo","E":"1714717314119","B":[{"a":"HKD","f":"1000","l":"0"}]}`;
/** An element whose `e` is empty, as the issue reports HashKey documents one (no payload of it was found: fields assumed). */
const emptyType = String.raw`{"e":"","E":"1714717314120"}`;

const parsed = (text: string): Record<string, unknown> => {
  const r = parseJson(text);
  if (E.isLeft(r)) throw r.left;
  return r.right as Record<string, unknown>;
};

describe('OtherPrivateEventCodec', () => {
  it.each([
    ['contractExecutionReport', contractExecutionReport, 1723037391181],
    ['outboundContractPositionInfo', contractPosition, 1723084699801],
    ['outboundContractAccountInfo', contractAccount, 1714717314118],
    ['outboundCustodyAccountInfo', custodyAccount, 1714717314118],
    ['outboundFiatAccountInfo', fiatAccount, 1714717314119],
    ['', emptyType, 1714717314120],
  ])('delivers HashKey %j typed, its fields exact in raw', (type, text, E) => {
    const element = parsed(text);
    const event = assertDecodes(PrivateEventCodec, element);
    expect(event).toStrictEqual({ e: 'other', type, E, raw: element });
  });

  it('keeps 64-bit ids of the element exact (as text)', () => {
    const event = assertDecodes(PrivateEventCodec, parsed(contractPosition.replace('"A":"1735619524953226496"', '"A":1735619524953226496')));
    expect(event.e === 'other' && event.raw.A).toBe('1735619524953226496');
  });

  it('fails only for what is no event: a non-object, an e that is not text', () => {
    assertFails(OtherPrivateEventCodec, [1], [': OtherPrivateEvent']);
    assertFails(OtherPrivateEventCodec, { e: null }, [': OtherPrivateEvent']);
  });

  it('a frame mixing kinds: every element arrives, the ones not modelled as other events', () => {
    const frame = parsed(`[${contractExecutionReport},${ticket},${contractPosition},${emptyType}]`);
    const results = decodePrivateFrame(frame);
    expect(results.map((r) => (E.isRight(r) ? (r.right.e === 'other' ? `other:${r.right.type}` : r.right.e) : 'error'))).toEqual([
      'other:contractExecutionReport',
      'ticketInfo',
      'other:outboundContractPositionInfo',
      'other:',
    ]);
  });
});

describe('fields HashKey adds to the known events', () => {
  // ccxt `watchPrivate`'s comment (a recorded spot report, ids and times as sent) carries M, A, C and v; spot
  // reports as the venue sends them (spec/bench/realFrames.ts, modelled on it) carry `"C":""`.
  const spot = {
    e: 'executionReport' as const,
    E: '1713969654752',
    s: 'ETHUSDT',
    c: '1713969654676406',
    S: 'BUY' as const,
    o: 'MARKET_OF_QUOTE',
    f: 'GTC',
    q: '33' as const,
    p: '0' as const,
    X: 'FILLED',
    i: '1671293029561028608',
    M: '1671293004546199552',
    l: '0.0103',
    z: '0.0103' as const,
    L: '3200.5',
    n: '0.00000618',
    N: 'ETH',
    u: true,
    w: true,
    m: false,
    O: '1713969654687',
    Z: '32.96515' as const,
    A: '0',
    C: false,
    v: '0',
  };

  it('an execution report keeps M, A, v as text and C as sent', () => {
    const decoded = assertDecodes(ExecutionReportCodec, spot, { ...spot, E: 1713969654752, O: 1713969654687 });
    expect(decoded).toMatchObject({ M: '1671293004546199552', A: '0', C: false, v: '0' });
    expect(assertDecodes(ExecutionReportCodec, { ...spot, C: '' })).toMatchObject({ C: '' });
  });

  it('F, rt and T are kept as sent, whatever scalar they hold; a number for M, A or v becomes text', () => {
    for (const value of ['', 'x', 0, 1.5, true, null]) {
      expect(assertDecodes(ExecutionReportCodec, { ...spot, F: value, rt: value, T: value })).toMatchObject({ F: value, rt: value, T: value });
    }
    expect(assertDecodes(ExecutionReportCodec, { ...spot, M: 12, A: 7, v: 5 })).toMatchObject({ M: '12', A: '7', v: '5' });
    // an object where a scalar is expected still fails, with its path
    assertFails(ExecutionReportCodec, { ...spot, rt: {} }, [': ExecutionReport/rt: JsonScalar']);
  });

  it('a balance keeps r (to be released: decimal text or empty) and v', () => {
    const update = parsed(contractAccount.replace('outboundContractAccountInfo', 'outboundAccountInfo'));
    expect(assertDecodes(OutboundAccountInfoCodec, update).B[0]).toStrictEqual({ a: 'USDT', f: '474960.65', l: '24835.178056020383226869', r: '' });
    const B = [{ a: 'BTC', f: '1', l: '0', r: '0.5', v: 3 }];
    expect(assertDecodes(OutboundAccountInfoCodec, { ...update, B }).B).toStrictEqual(B);
    assertFails(OutboundAccountInfoCodec, { ...update, B: [{ a: 'BTC', f: '1', l: '0', r: 'x' }] }, [': OutboundAccountInfo/B: Array<Balance>/0: Balance/r: DecimalOrEmptyString']);
  });
});

describe('PrivateEvent (types)', () => {
  it('narrows by e: the modelled events keep their fields, an other event has its own', () => {
    const kinds = (event: import('../../lib/codecs/privateEvents').PrivateEvent): string => {
      switch (event.e) {
        case 'executionReport':
          return event.X;
        case 'outboundAccountInfo':
          return String(event.B.length);
        case 'ticketInfo':
          return event.T;
        case 'other':
          // @ts-expect-error an other event has no status field of its own: read it from raw
          return event.X ?? event.type;
        default: {
          const never: never = event;
          return never;
        }
      }
    };
    expect(kinds({ e: 'other', type: 'x', raw: {} })).toBe('x');
  });
});
