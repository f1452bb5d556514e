import type { ScannedLevels } from './levelsJson';

/**
 * The receiver of a socket's parsed frames: the message, the scheduler time at which its frame arrived, and, in
 * `exactIntegers: 'on-demand'` mode, `exact()`: the same frame parsed again with its long integer literals
 * quoted, or `undefined` when it has none (the message is exact as it is). `exact` may only be called during the
 * sink's call. `text`: the frame's text the message was parsed from (absent for what `readFrame` read), for a
 * sink that keeps a part of it exactly as received. `scanned` (on-demand mode): the book levels of the message
 * that the JSON step checked, for the depth check (`FastCheck`'s `prechecked`); valid during the sink's call
 * only. @internal
 */
export type FrameSink = (message: unknown, now: number, exact?: () => unknown, text?: string, scanned?: ScannedLevels) => void;
