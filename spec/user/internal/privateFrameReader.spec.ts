import fc from 'fast-check';
import { FAIL, inPlaceCheckOf } from '../../../lib/codecs/fastCheck';
import { PrivateEventCodec } from '../../../lib/codecs/privateEvents';
import { structReader, readText } from '../../../lib/codecs/structReader';
import { ExecutionReportCodec } from '../../../lib/codecs/executionReport';
import { DecodeError } from '../../../lib/errors';
import { parseJsonValue } from '../../../lib/frame/json';
import { privateFrameReader, ReadEvents } from '../../../lib/user/internal/privateFrameReader';
import { realFrame } from '../../bench/realFrames';
import { damaged, mostly, objectText, primitiveValue } from '../../helpers/jsonText';

// The oracle: what the private path makes of a frame without the reader: the exact parse (long integers quoted),
// then each event checked in place by PrivateEventCodec (all of them, or the frame is not "all good").
const check = inPlaceCheckOf(PrivateEventCodec);

function generalPath(text: string): unknown[] | typeof FAIL {
  const parsed = parseJsonValue(text);
  if (parsed instanceof DecodeError) return FAIL;
  const elements = Array.isArray(parsed) ? parsed : [parsed];
  const events: unknown[] = [];
  for (const element of elements) {
    const event = check(element);
    if (event === FAIL) return FAIL;
    events.push(event);
  }
  return events;
}

const read = privateFrameReader()!;

type Outcome = 'read' | 'not read';

/** The reader reads `text` exactly as the general path would, event for event (key order aside), or not at all. */
function agrees(text: string): Outcome {
  const got = read(text);
  const expected = generalPath(text);
  if (got === FAIL) return 'not read';
  expect(got).toBeInstanceOf(ReadEvents);
  expect(expected).not.toBe(FAIL);
  expect(got.events).toStrictEqual(expected);
  return 'read';
}

const EXECUTION_KEYS = ['e', 'E', 's', 'c', 'S', 'o', 'f', 'q', 'p', 'reqAmt', 'X', 'd', 'i', 'l', 'r', 'z', 'L', 'V', 'n', 'N', 'u', 'w', 'm', 'O', 'U', 'Z', 'x', 'C', 'v', 'site'];
/** With HashKey's additions (ccxt's recorded frames carry M and A; F, rt, T are documented names): up to 36 keys. */
const EXECUTION_KEYS_M_A = [...EXECUTION_KEYS, 'M', 'A'];
const EXECUTION_KEYS_ALL = [...EXECUTION_KEYS_M_A, 'F', 'rt', 'T'];
const ACCOUNT_KEYS = ['e', 'E', 'T', 'W', 'D', 'B'];
const TICKET_KEYS = ['e', 'E', 's', 'q', 't', 'p', 'T', 'o', 'c', 'O', 'a', 'S', 'm'];
const BALANCE_KEYS = ['a', 'f', 'l'];
const BALANCE_KEYS_HK = ['a', 'f', 'l', 'r', 'v'];

const time = mostly(fc.constantFrom('"1731300000123"', '1731300000123', '"1731300000124"'), fc.constantFrom('"x"', '1.5', '12345678901234567', '""'));
const id = mostly(fc.constantFrom('"1920153487203598336"', '1920153487203598336', '"1920153487203598337"', '"7"', '7'), fc.constantFrom('-1.5', 'null', 'true'));
const decimal = mostly(fc.constantFrom('"0.10264410"', '"1.00000000"', '"0"', '"20000.5"', '"0.00100000"'), fc.constantFrom('"1e5"', '"-1"', '0.5', '"1."', '"0x10"', '" 1"'));
const decimalOrEmpty = fc.oneof({ weight: 4, arbitrary: decimal }, { weight: 1, arbitrary: fc.constant('""') });
const bool = mostly(fc.constantFrom('true', 'false', '"true"', '"false"'), fc.constantFrom('"yes"', '1', 'null'));
const text = mostly(fc.constantFrom('"ETHBTC"', '"LIMIT"', '"GTC"', '"NORMAL"', '""', '"é"'), fc.constantFrom('1', 'null', '"a\\"b"'));

/** Values that fit each field of the events, mostly (`e` is chosen by the caller). */
const eventValue =
  (tag: string) =>
  (key: string): fc.Arbitrary<string> => {
    const fitting = ((): fc.Arbitrary<string> => {
      switch (key) {
        case 'e':
          return mostly(fc.constant(`"${tag}"`), fc.constantFrom('"executionReport"', '"ticketInfo"', '"outboundAccountInfo"', '"other"', '1'), 10);
        case 'E':
        case 'O':
        case 'U':
        case 't':
          return time;
        case 'i':
        case 'd':
        case 'c':
        case 'T':
        case 'a':
          return tag === 'outboundAccountInfo' ? bool : id;
        case 'o':
          return tag === 'ticketInfo' ? id : text;
        case 'S':
          return mostly(fc.constantFrom('"BUY"', '"SELL"'), fc.constantFrom('"buy"', '""'));
        case 'X':
          return mostly(
            fc.constantFrom('"PENDING_NEW"', '"NEW"', '"PARTIALLY_FILLED"', '"PENDING_CANCEL"', '"FILLED"', '"CANCELED"', '"REJECTED"', '"PARTIALLY_CANCELED"'),
            fc.constantFrom('"EXPIRED"', '""', '4', 'null'),
          );
        case 'M':
        case 'A':
          return id;
        case 'F':
        case 'rt':
        case 'C':
          return fc.oneof(text, bool, time);
        case 'q':
        case 'p':
        case 'z':
        case 'Z':
          return decimal;
        case 'reqAmt':
        case 'l':
        case 'r':
        case 'L':
        case 'V':
        case 'n':
          return decimalOrEmpty;
        case 'N':
          return fc.oneof(text, fc.constant('null'));
        case 'u':
        case 'w':
        case 'm':
        case 'W':
        case 'D':
          return bool;
        case 'B':
          return fc
            .array(
              fc.oneof(
                objectText(BALANCE_KEYS, (k) => (k === 'a' ? text : decimal)),
                objectText(BALANCE_KEYS_HK, (k) => (k === 'a' || k === 'v' ? text : k === 'r' ? decimalOrEmpty : decimal)),
              ),
              { maxLength: 3 },
            )
            .map((b) => `[${b.join(',')}]`);
        default:
          return text;
      }
    })();
    return fc.oneof({ weight: 30, arbitrary: fitting }, { weight: 1, arbitrary: primitiveValue });
  };

const privateEvent: fc.Arbitrary<string> = fc
  .constantFrom(
    ['executionReport', EXECUTION_KEYS],
    ['executionReport', EXECUTION_KEYS_M_A],
    ['executionReport', EXECUTION_KEYS_ALL],
    ['outboundAccountInfo', ACCOUNT_KEYS],
    ['ticketInfo', TICKET_KEYS],
  )
  .chain(([tag, keys]) => objectText(keys as string[], eventValue(tag as string)));

/** A private frame: an array of events (mostly), one event object, or a heartbeat; sometimes damaged. */
const privateFrame: fc.Arbitrary<string> = damaged(
  fc.oneof(
    { weight: 6, arbitrary: fc.array(privateEvent, { maxLength: 3 }).map((events) => `[${events.join(',')}]`) },
    { weight: 2, arbitrary: privateEvent },
    { weight: 1, arbitrary: fc.constantFrom('{"ping":1731300000000}', '{"pong":1731300000000,"channelId":"x"}', '[]', '{}', 'null', '"x"') },
  ),
);

describe('privateFrameReader against the exact parse and PrivateEventCodec', () => {
  test('reads what the general path reads, event for event, and nothing it refuses (generated frames, in sequences)', () => {
    const outcomes: Record<Outcome, number> = { read: 0, 'not read': 0 };
    fc.assert(
      // Sequences: each field remembers the last string it made, so a frame is also read after others.
      fc.property(fc.array(privateFrame, { minLength: 1, maxLength: 4 }), (texts) => {
        for (const text of texts) outcomes[agrees(text)]++;
      }),
      { numRuns: 2500 },
    );
    // both branches are taken, so the property cannot pass by never reading
    expect(outcomes.read).toBeGreaterThan(300);
    expect(outcomes['not read']).toBeGreaterThan(300);
  });

  test('reads the real-shaped execution reports, 64-bit ids exact, one event object too', () => {
    for (let n = 0; n < 50; n++) expect(agrees(realFrame('executionReport', n).toString())).toBe('read');
    const one = read('{"e":"ticketInfo","E":"1668693440976","s":"BTCUSDT","q":"0.001","t":"1668693440899","p":"16699.1","T":1291488620385157122,"o":"1291488620167835136","S":"BUY"}');
    expect(one).toBeInstanceOf(ReadEvents);
    expect((one as ReadEvents).events).toStrictEqual([{ e: 'ticketInfo', E: 1668693440976, s: 'BTCUSDT', q: '0.001', t: 1668693440899, p: '16699.1', T: '1291488620385157122', o: '1291488620167835136', S: 'BUY' }]);
  });

  test('not read: heartbeats, an event whose e is not first or unknown, a second e, whitespace, an escape', () => {
    for (const t of [
      '{"ping":1731300000000}',
      '{"E":1,"e":"outboundAccountInfo","B":[]}',
      '[{"e":"other","E":1}]',
      '[{"e":"outboundAccountInfo","E":1,"B":[],"e":"ticketInfo"}]',
      '[{"e":"outboundAccountInfo", "E":1,"B":[]}]',
      '[{"e":"outboundAccountInfo","E":1,"B":[{"a":"B\\u0054C","f":"1","l":"0"}]}]',
      '[{"e":"outboundAccountInfo","E":1,"B":[]}] ',
    ]) {
      expect(read(t)).toBe(FAIL);
    }
  });

  test('a field that remembers its last string never gives it for other text of the same length', () => {
    const reader = structReader(ExecutionReportCodec, { remember: true })!;
    const frame = realFrame('executionReport', 1).toString().slice(1, -1);
    const prices = ['76321.50', '76321.51', '16321.50', '76321.50', '7.5', '76321.05'];
    const read = prices.map((price) => (readText(frame.replace('"p":"76321.50"', `"p":"${price}"`), reader) as Record<string, string>).p);
    expect(read).toStrictEqual(prices);
  });
});
