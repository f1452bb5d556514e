// Data path, private side (notes/architecture.md, "The data path"): step 2 for the usual private frame, its text read straight into checked events.
import type * as t from 'io-ts';
import { ExecutionReportCodec } from '../../codecs/executionReport';
import { FAIL } from '../../codecs/fastCheck';
import { OutboundAccountInfoCodec } from '../../codecs/outboundAccountInfo';
import type { PrivateEvent } from '../../codecs/privateEvents';
import { readArray, type Reader, readText, structReader } from '../../codecs/structReader';
import { TicketInfoCodec } from '../../codecs/ticketInfo';

/**
 * The private stream's reader of the frames the service usually sends: an array of events (or one event object),
 * compact JSON, each event an object whose first key is `e`, read with the readers derived from the event codecs'
 * declarations (`structReader`) into checked events at once: what `JSON.parse` (the exact parse) and
 * `PrivateEventCodec`'s check give, field by field. Any other frame (a heartbeat, whitespace, an escape, an event
 * whose `e` is not first or not known, a value a check refuses) is not read here and takes the general path (parse,
 * check, the codec's error for a bad event), so what is refused and how it is reported does not change.
 *
 * @internal
 * @module
 */

/**
 * The events read from one frame's text, all checked (`JSON.parse` never yields a class instance, so the frame
 * sink tells it apart with `instanceof`). @internal
 */
export class ReadEvents {
  constructor(readonly events: readonly PrivateEvent[]) {}

  /**
   * Makes (once) an instance that lives as long as the process, so that the hidden class of every instance does
   * (why: `ReadMessage.keepShape`, the market side's). Called when the reader is compiled.
   */
  static keepShape(): void {
    keeper ??= new ReadEvents([]);
  }
}

/** The instance {@link ReadEvents.keepShape} keeps. */
let keeper: ReadEvents | undefined;

/** A private frame reader (see {@link privateFrameReader}). @internal */
export type PrivateFrameReader = (text: string) => ReadEvents | typeof FAIL;

/** The event codecs by their `e`, as `PrivateEventCodec` dispatches them. */
const EVENT_CODECS: ReadonlyArray<readonly [string, t.Decoder<unknown, unknown>]> = [
  ['executionReport', ExecutionReportCodec],
  ['outboundAccountInfo', OutboundAccountInfoCodec],
  ['ticketInfo', TicketInfoCodec],
];

const OPEN_BRACKET = 0x5b;

/** The one private frame reader, compiled on first use (`null`: code cannot be compiled here). */
let shared: PrivateFrameReader | null | undefined;

/**
 * The private frame reader: a {@link ReadEvents}, or `FAIL` (parse the text instead); `undefined` where code cannot
 * be compiled (then every frame is parsed). Never throws. Compiled once, on first use, and shared by every user
 * stream: it keeps no state between frames. @internal
 */
export function privateFrameReader(): PrivateFrameReader | undefined {
  if (shared === undefined) shared = compilePrivateFrameReader() ?? null;
  return shared ?? undefined;
}

/** `{"e":"`: an event whose first key is `e`, its value text. */
const HEAD = '{"e":"';

function compilePrivateFrameReader(): PrivateFrameReader | undefined {
  ReadEvents.keepShape();
  // The member is chosen by the first character of `e`'s value (the members' tags start with different letters); its
  // reader then reads `e` itself, so a value that is not exactly its tag is refused (FAIL: the general path, whose
  // tagged union reports it), as is a second `e` (any duplicate key).
  const readers: Reader[] = [];
  for (const [tag, codec] of EVENT_CODECS) {
    const reader = structReader(codec, { remember: true });
    if (reader === undefined || readers[tag.charCodeAt(0)] !== undefined) return undefined;
    readers[tag.charCodeAt(0)] = reader;
  }
  const event: Reader = (s, p) => {
    const reader = s.startsWith(HEAD, p.i) ? readers[s.charCodeAt(p.i + HEAD.length)] : undefined;
    return reader === undefined ? FAIL : reader(s, p);
  };
  const events: Reader = (s, p) => readArray(s, p, event);
  return (text) => {
    if (text.charCodeAt(0) === OPEN_BRACKET) {
      const value = readText(text, events);
      return value === FAIL ? FAIL : new ReadEvents(value as PrivateEvent[]);
    }
    const value = readText(text, event);
    return value === FAIL ? FAIL : new ReadEvents([value as PrivateEvent]);
  };
}
