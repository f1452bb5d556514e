// Data path (notes/architecture.md, "The data path"): steps 2-3 of one frame, its bytes → text → JSON value → the sink.
import { FAIL } from '../codecs/fastCheck';
import { DecodeError } from '../errors';
import { redact } from '../internal/redact';
import { frameText } from './decodeFrame';
import type { FrameLimits } from './frameLimits';
import type { FrameSink } from './frameSink';
import { exactJsonValue, parseJsonValue } from './json';
import { ScannedLevels } from './levelsJson';

/** What the handling of a socket's frames needs (see `SessionSettings`, whose fields these are). @internal */
export interface FrameHandlerSettings {
  readonly limits: FrameLimits;
  /** Secrets of the socket's address, redacted from what a failure says. */
  readonly secrets: readonly string[];
  readonly exactIntegers?: 'eager' | 'on-demand' | undefined;
  readonly readFrame?: ((text: string) => unknown) | undefined;
  /** Each parsed message, first (the heartbeat's answer), before the sink. */
  readonly onParsed: (message: unknown, now: number) => void;
  readonly onMessage: FrameSink;
  readonly onDecodeError: (error: DecodeError) => void;
}

/**
 * The handler of one socket's frames, data path steps 2-3 (notes/architecture.md): one frame's text (a zip frame
 * inflated) → what `readFrame` reads from it, else its JSON value → `onParsed` and the sink. The one seam of frame
 * handling (one try/catch per frame): whatever the decoder, `onParsed` or a sink throws (a stack overflow on a
 * hostile frame, a bug) becomes a `DecodeError` (`frame handling failed: …`) and the socket keeps going. In
 * `'on-demand'` mode the sink gets `exact()` and the book levels the JSON step checked, both for the frame's own
 * handling only. @internal
 */
export function frameHandler(s: FrameHandlerSettings): (data: unknown, now: number) => void {
  const { limits, secrets, readFrame, onParsed, onMessage, onDecodeError } = s;
  const onDemand = s.exactIntegers === 'on-demand';
  /** The text of the frame being handled, for `exact` (on-demand mode). */
  let frame = '';
  const exact = (): unknown => exactJsonValue(frame);
  /** The book levels the JSON step checked in the frame being handled (on-demand mode), for the depth check. */
  const scanned = onDemand ? new ScannedLevels() : undefined;
  return (data, now) => {
    try {
      const text = frameText(data, limits);
      if (text instanceof DecodeError) return onDecodeError(text);
      if (readFrame !== undefined) {
        const read = readFrame(text);
        if (read !== FAIL) return onMessage(read, now);
      }
      // On demand, the sinks check what they read at once: the levels scanned in the JSON step go with the
      // message to the depth check, until the frame has been handled.
      const message = parseJsonValue(text, limits.secrets, !onDemand, scanned);
      if (message instanceof DecodeError) return onDecodeError(message);
      onParsed(message, now);
      if (scanned === undefined) return onMessage(message, now, undefined, text);
      frame = text;
      onMessage(message, now, exact, text, scanned.any ? scanned : undefined);
      frame = '';
      scanned.clear();
    } catch (thrown: unknown) {
      frame = '';
      scanned?.clear();
      onDecodeError(handlerFailure(thrown, secrets));
    }
  };
}

/** Longest description of a thrown value kept in the `DecodeError` that reports it. */
const MAX_FAILURE_LENGTH = 120;

/** Something frame handling threw, as a `DecodeError` with a short redacted description. @internal */
export function handlerFailure(thrown: unknown, secrets: readonly string[]): DecodeError {
  let text: string;
  try {
    text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : typeof thrown;
  } catch {
    text = 'unknown';
  }
  const clean = redact(text, secrets);
  const short = clean.length > MAX_FAILURE_LENGTH ? `${clean.slice(0, MAX_FAILURE_LENGTH)}…` : clean;
  return new DecodeError('codec', `frame handling failed: ${short}`);
}
