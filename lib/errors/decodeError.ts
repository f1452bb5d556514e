/**
 * Where a {@link DecodeError} happened: the frame layer or the codec layer.
 *
 * @example
 * ```ts
 * import { DecodeError, marketStreams, type DecodeErrorKind } from 'ex-streams';
 *
 * const kindOf = (error: Error): DecodeErrorKind | undefined => (error instanceof DecodeError ? error.kind : undefined);
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).errors$
 *   .subscribe((e) => console.warn(kindOf(e) ?? e.name)); // 'json', 'codec', 'zip', ...
 * ```
 */
export type DecodeErrorKind =
  | 'frame-too-large'
  | 'inflated-too-large'
  | 'zip'
  | 'utf8'
  | 'json'
  | 'codec';

/**
 * A frame or a payload that could not be turned into a typed value. The stream it arrived on keeps going;
 * the error is reported on the `errors$` side stream of the stream factories.
 *
 * @example
 * ```ts
 * import { DecodeError } from 'ex-streams';
 * const e = new DecodeError('codec', 'TradeRecord failed', ['Invalid value "x" supplied to : TradeRecord/t: Int']);
 * e.paths; // ['Invalid value "x" supplied to : TradeRecord/t: Int']
 * ```
 */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  constructor(
    /** Which layer rejected the input. */
    readonly kind: DecodeErrorKind,
    message: string,
    /**
     * PathReporter-style lines (`Invalid value <v> supplied to : A/b: C`), one per failed path, empty for
     * frame-level errors. Bounded whatever the input: each value is redacted, then cut at 40 characters
     * (`…`); at most 10 lines, then `… and N more`. When several records (or events, or batch messages) of
     * one frame fail, the frame gives ONE error whose message counts them and whose paths are the first's.
     */
    readonly paths: readonly string[] = [],
    /**
     * The offending input, redacted (listen keys, signatures, tokens, opaque 32+ character keys), then cut
     * at 300 characters (`…`).
     */
    readonly raw?: string,
  ) {
    super(message);
  }
}
