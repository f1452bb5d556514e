import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { countedDecodeError, decodeWith, PATH_VALUE_LENGTH, rawExcerpt } from '../../codecs/decode';
import type { PublicEnvelope } from '../../codecs/envelope';
import { FAIL, type FastCheck, inPlaceCheckOf, type Prechecked } from '../../codecs/fastCheck';
import { PublicErrorFrameCodec, type PublicErrorFrame } from '../../codecs/publicErrorFrame';
import { DecodeError } from '../../errors';
import { exactJsonValue } from '../../frame/json';
import { excerpt } from '../../internal/redact';
import { isRecord } from '../../internal/guards';
import { decodeRecords } from './decodeRecords';
import { RawEnvelopeCodec, ReadMessage } from './marketFrameReader';

/**
 * Data path, market side (notes/architecture.md, "The data path"): step 5, after `marketFeed` hands it a parsed
 * frame. Checks each message's envelope, routes it to the topic subscription that asked for it (by the echoed
 * request `id` first, by `(symbol, topic, klineType)` otherwise: the service keeps one subscription per symbol and
 * topic, whatever its `binary` flag; Map lookups only, O(1) per message), decodes its records with that topic's
 * codec (`decodeRecords`) and hands them to the topic (`topicSubscription`, step 6). Everything it cannot use
 * goes to `onIssue` as a `DecodeError`.
 *
 * @internal
 * @module
 */

/** One live server subscription, as the router sees it. @internal */
export interface RoutedTopic<R = unknown> {
  readonly symbol: string;
  /** The request topic: `kline_1m`, `realtimes`, `trade`, `depth`. */
  readonly topic: string;
  /** The codec of the topic's records (`data` elements). */
  readonly codec: t.Decoder<unknown, R> & { readonly name: string };
  /**
   * Its check in place (`inPlaceCheckOf(codec)`): a parsed frame belongs to the market feed alone, so converted
   * fields are written into the record rather than into a copy.
   */
  readonly check: FastCheck<R> | undefined;
  /** A data message for this subscription: its envelope and the records that decoded (in order). */
  deliver(envelope: PublicEnvelope<unknown>, records: readonly R[], epoch: number): void;
}

/**
 * Where the router hands the service's error frames (and code-0 acknowledgements): `byId` is the subscription the
 * frame's `id` routes to, if any. Returns false when the frame concerns no subscription (then reported as a
 * `DecodeError`). @internal
 */
export type ServiceFrameSink = (frame: PublicErrorFrame, byId: RoutedTopic | undefined) => boolean;

/** Its check in place: the parsed frame is the market feed's alone (converted fields are written into it). */
const rawEnvelopeCheck = /*#__PURE__*/ inPlaceCheckOf(RawEnvelopeCodec);

const keyOf = (symbol: string, topic: string): string => `${symbol}|${topic}`;

/** The interval of a `kline_<interval>` request topic, `undefined` for any other topic. */
const klineInterval = (topic: string): string | undefined => (topic.startsWith('kline_') ? topic.slice('kline_'.length) : undefined);

/** The inner map of `key`, made when missing. */
function inner(maps: Map<string, Map<string, RoutedTopic>>, key: string): Map<string, RoutedTopic> {
  let found = maps.get(key);
  if (found === undefined) maps.set(key, (found = new Map()));
  return found;
}

/** Deletes `key` → `sub` from `maps`, and the inner map once empty. */
function forget(maps: Map<string, Map<string, RoutedTopic>>, key: string, sub: string): void {
  const found = maps.get(key);
  found?.delete(sub);
  if (found?.size === 0) maps.delete(key);
}


/** The router of one market connection. @internal */
export class TopicRouter {
  private readonly byId = new Map<string, RoutedTopic>();
  private readonly byKey = new Map<string, RoutedTopic>();
  /** `byKey` as symbol → request topic → subscription: routing a message builds no key string. */
  private readonly bySymbol = new Map<string, Map<string, RoutedTopic>>();
  /** The kline subscriptions again as symbol → interval → subscription: a kline message (topic `kline` + its `klineType`) is routed without building `kline_<interval>`. */
  private readonly klines = new Map<string, Map<string, RoutedTopic>>();
  private readonly idOf = new Map<RoutedTopic, string>();
  /** Epoch of the socket the next message comes from. */
  epoch = 0;

  /**
   * While a message parsed without quoting its long integers is handled: its frame's text, parsed again here with
   * them quoted when the message or a record fails its check ({@link retryExact}). Nothing is delivered before its
   * message passed, so the exact parse can take over; it is made at most once.
   */
  private exactText: string | undefined;
  /** While a frame is dispatched: the parts of it the JSON step checked (its book levels), for the record checks. */
  private prechecked: Prechecked | undefined;
  /** The check {@link checkWithPrechecked} runs: the one of the topic whose records are being decoded. */
  private topicCheck: FastCheck = () => FAIL;
  /** {@link topicCheck} with the frame's prechecked parts: made once, so a frame costs no closure. */
  private readonly checkWithPrechecked: FastCheck = (u) => this.topicCheck(u, this.prechecked);
  /** The record issue of the message being decoded, held until it is known whether {@link exact} takes over. */
  private held: DecodeError | undefined;
  private readonly hold = (issue: DecodeError): void => {
    this.held ??= issue;
  };

  /**
   * `onIssue` receives every message the router cannot use, as a `DecodeError`; `onServiceFrame` the service's error
   * frames (none: every one is an issue).
   */
  constructor(
    private readonly onIssue: (issue: DecodeError) => void,
    private readonly onServiceFrame: ServiceFrameSink = () => false,
    /** Reads the exact parse of a frame of another dialect into the V1 shapes (as the feed read the first). Default: none (V1). */
    private readonly readMessage?: ((message: unknown) => unknown) | undefined,
  ) {}

  /** The exact parse of the message being handled, when it differs (then handled instead); `undefined` otherwise. */
  private retryExact(): unknown {
    const text = this.exactText;
    this.exactText = undefined;
    return text === undefined ? undefined : this.exactOf(text);
  }

  /** `text` parsed with its long integers quoted (read into V1 shapes), or `undefined` when it has none. */
  private exactOf(text: string): unknown {
    const quoted = exactJsonValue(text);
    return quoted === undefined || this.readMessage === undefined ? quoted : this.readMessage(quoted);
  }

  /** The check of `topic`'s records in the frame being dispatched: with the frame's prechecked parts, when it has some. */
  private checkOf(topic: RoutedTopic): FastCheck | undefined {
    const check = topic.check;
    if (check === undefined || this.prechecked === undefined) return check;
    this.topicCheck = check;
    return this.checkWithPrechecked;
  }

  add(topic: RoutedTopic): void {
    this.byKey.set(keyOf(topic.symbol, topic.topic), topic);
    inner(this.bySymbol, topic.symbol).set(topic.topic, topic);
    const interval = klineInterval(topic.topic);
    if (interval !== undefined) inner(this.klines, topic.symbol).set(interval, topic);
  }

  /**
   * `id` is now the request id of `topic` (the previous one is forgotten); `undefined`: it has none (its `sub` went
   * out in a frame with other symbols, whose messages are routed by their symbol).
   */
  setId(topic: RoutedTopic, id: string | undefined): void {
    const previous = this.idOf.get(topic);
    if (previous !== undefined && this.byId.get(previous) === topic) this.byId.delete(previous);
    if (id === undefined) {
      this.idOf.delete(topic);
      return;
    }
    this.idOf.set(topic, id);
    this.byId.set(id, topic);
  }

  remove(topic: RoutedTopic): void {
    const id = this.idOf.get(topic);
    if (id !== undefined) this.byId.delete(id);
    this.idOf.delete(topic);
    const key = keyOf(topic.symbol, topic.topic);
    if (this.byKey.get(key) === topic) {
      this.byKey.delete(key);
      forget(this.bySymbol, topic.symbol, topic.topic);
      const interval = klineInterval(topic.topic);
      if (interval !== undefined) forget(this.klines, topic.symbol, interval);
    }
  }

  /** The subscription a data message of `symbol` and (response) `topic` answers, by its key. */
  private byRoute(symbol: string, topic: string, klineType: string | undefined): RoutedTopic | undefined {
    return topic === 'kline' && klineType !== undefined ? this.klines.get(symbol)?.get(klineType) : this.bySymbol.get(symbol)?.get(topic);
  }

  /** Live subscriptions. */
  get size(): number {
    return this.byKey.size;
  }

  /**
   * Handles one decoded JSON message of the connection. A batch frame (an array: some deployments batch
   * several messages into one frame) is walked one level, without recursion: each element is handled as a
   * message, an element that is itself an array is a bad message (so no nesting depth can exhaust the
   * stack), and the elements the router cannot use are reported as ONE `DecodeError` per frame.
   *
   * `exactText`: the frame's text when the message was parsed without quoting its long integers (`exactIntegers:
   * 'on-demand'`), parsed again here with them quoted when a check fails. `prechecked`: the parts of the message
   * the JSON step checked (see `FrameSink`), handed to the record checks during this call only.
   */
  dispatch(message: unknown, exactText?: string, prechecked?: Prechecked): void {
    if (message instanceof ReadMessage && exactText === undefined && prechecked === undefined) {
      // The usual frame, read by a frame reader: one message, exact already (what `dispatchFrame` would do with it,
      // in two calls fewer on the hot path).
      const issue = this.onRead(message, true);
      if (issue !== undefined && issue !== UNUSABLE) this.onIssue(issue);
      return;
    }
    this.prechecked = prechecked;
    try {
      this.dispatchFrame(message, exactText);
    } finally {
      this.prechecked = undefined;
    }
  }

  private dispatchFrame(message: unknown, exactText: string | undefined): void {
    if (exactText !== undefined && Array.isArray(message)) {
      // The elements of a batch are delivered one by one: its long integers are made exact before any goes out.
      const quoted = this.exactOf(exactText);
      if (quoted !== undefined) message = quoted;
      exactText = undefined;
    }
    if (!Array.isArray(message)) {
      this.exactText = exactText;
      let issue: Issue;
      try {
        issue = this.handle(message, true);
      } finally {
        this.exactText = undefined;
      }
      if (issue !== undefined && issue !== UNUSABLE) this.onIssue(issue);
      return undefined;
    }
    // Only the first issue is described (a DecodeError); the others are counted (UNUSABLE: no error
    // object, no rendering), so a 4 MB batch of bad messages costs about its JSON.parse.
    const n = message.length;
    let first: DecodeError | undefined;
    let failed = 0;
    for (let i = 0; i < n; i++) {
      const element: unknown = message[i];
      const describe = first === undefined;
      const issue = Array.isArray(element) ? (describe ? nestedArray(element) : UNUSABLE) : this.handle(element, describe);
      if (issue === undefined) continue;
      if (issue !== UNUSABLE) first ??= issue;
      failed++;
    }
    if (first !== undefined) this.onIssue(failed === 1 ? first : countedDecodeError(first, failed, n, 'messages of a batch frame'));
    return undefined;
  }

  /**
   * One message that is not an array: routed (`undefined`), or why it cannot be used: a `DecodeError` when
   * `describe`, else just {@link UNUSABLE}.
   */
  private handle(message: unknown, describe: boolean): Issue {
    if (message instanceof ReadMessage) return this.onRead(message, describe);
    if (!isRecord(message)) return describe ? unknownMessage(message) : UNUSABLE;
    if ('data' in message && 'topic' in message) return this.onEnvelope(message, describe);
    if ('code' in message) return this.onErrorFrame(message, describe);
    if ('pong' in message || 'ping' in message) return undefined;
    return describe ? unknownMessage(message) : UNUSABLE;
  }

  private onEnvelope(message: Record<string, unknown>, describe: boolean): Issue {
    // The fast check first: no io-ts context, no Either for a valid envelope (decodeWith gives the errors).
    // It refuses exactly what the codec refuses (property-tested), so an issue not described needs no codec.
    let envelope = rawEnvelopeCheck(message);
    if (envelope === FAIL) {
      const quoted = this.retryExact();
      if (quoted !== undefined) return this.handle(quoted, describe);
      if (!describe) return UNUSABLE;
      const decoded = decodeWith(RawEnvelopeCodec, message);
      if (E.isLeft(decoded)) return decoded.left;
      envelope = decoded.right;
    }
    const topic = this.subscriptionOf(envelope);
    if (topic === undefined) return undefined;
    const records = decodeRecords(topic.codec, this.checkOf(topic), envelope.data, this.hold);
    const issue = this.held;
    this.held = undefined;
    if (issue !== undefined) {
      // A record failed: if a long integer was rounded (and an exact parse is on offer), the exact parse decides;
      // else the issue stands.
      const quoted = this.retryExact();
      if (quoted !== undefined) return this.handle(quoted, describe);
      this.onIssue(issue);
    }
    topic.deliver(envelope, records, this.epoch);
    return undefined;
  }

  /**
   * A data message read from its text with its records checked (`marketFrameReader`): delivered as it is when its
   * subscription decodes with the codec that checked them, else read the general way (`read.general`) and handled.
   */
  private onRead(read: ReadMessage, describe: boolean): Issue {
    const { envelope } = read;
    const topic = this.subscriptionOf(envelope);
    if (topic === undefined) return undefined;
    if (topic.codec !== read.codec) return this.handle(read.general(read.text), describe);
    topic.deliver(envelope, envelope.data, this.epoch);
    return undefined;
  }

  /** The subscription a data message answers: by its echoed request `id` first, by its route otherwise. */
  private subscriptionOf(envelope: PublicEnvelope<unknown>): RoutedTopic | undefined {
    const klineType = envelope.params?.klineType;
    const id = envelope.id;
    return (
      (id !== undefined ? this.byId.get(id) : undefined) ??
      this.byRoute(envelope.symbol, envelope.topic, klineType) ??
      (envelope.symbolName !== undefined ? this.byRoute(envelope.symbolName, envelope.topic, klineType) : undefined)
    );
  }

  private onErrorFrame(message: Record<string, unknown>, describe: boolean): Issue {
    let frame: PublicErrorFrame;
    if (describe) {
      const decoded = decodeWith(PublicErrorFrameCodec, message);
      if (E.isLeft(decoded)) return decoded.left;
      frame = decoded.right;
    } else {
      const decoded = PublicErrorFrameCodec.decode(message);
      if (E.isLeft(decoded)) return UNUSABLE;
      frame = decoded.right;
    }
    if (this.onServiceFrame(frame, frame.id !== undefined ? this.byId.get(frame.id) : undefined)) return undefined;
    if (!describe) return UNUSABLE;
    return new DecodeError('codec', `public stream error frame for no live subscription: code ${excerpt(String(frame.code), undefined, PATH_VALUE_LENGTH)}`, [], rawExcerpt(message));
  }
}

/** A message the router cannot use, counted but not described (see {@link TopicRouter.dispatch}). */
const UNUSABLE: unique symbol = Symbol('unusable');
/** What handling one message gives: nothing (routed or ignored), a described issue, or {@link UNUSABLE}. */
type Issue = DecodeError | typeof UNUSABLE | undefined;

/** The issue of a message the router does not recognise. */
const unknownMessage = (message: unknown): DecodeError =>
  new DecodeError('codec', 'unrecognised public stream message', [], rawExcerpt(message));

/** The issue of an array inside a batch frame (never walked: its depth may be anything). */
const nestedArray = (element: readonly unknown[]): DecodeError =>
  new DecodeError('codec', 'nested array in a batch frame (a batch holds message objects)', [], rawExcerpt(element));
