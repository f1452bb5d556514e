import { TestScheduler } from 'rxjs/testing';

/** How a socket is closed by the server: `code` 1006 (the default) is an abrupt drop, others a close frame. @internal */
export interface CloseSpec {
  readonly code?: number | undefined;
  readonly reason?: string | undefined;
}

/** One step of a server script: a frame to send, or a close (`#` in the marbles). @internal */
export type ScriptStep =
  | { readonly frame: number; readonly type: 'send'; readonly value: unknown }
  | { readonly frame: number; readonly type: 'close'; readonly close: CloseSpec };

/**
 * Parses a server script written as marbles (run-mode syntax: 1 character = 1 ms, `500ms` time
 * progressions, `(ab)` groups). A value is a frame; `#` closes the socket with `closeWith`; `|` ends the
 * script (nothing happens). Frames before the start (`^`) are dropped.
 * @internal
 */
export function parseScript(marbles: string, values: Record<string, unknown> | undefined, closeWith: CloseSpec): ScriptStep[] {
  const steps: ScriptStep[] = [];
  for (const { frame, notification } of TestScheduler.parseMarbles(marbles, values, closeWith, false, true)) {
    if (frame < 0) continue;
    if (notification.kind === 'N') steps.push({ frame, type: 'send', value: notification.value });
    else if (notification.kind === 'E') steps.push({ frame, type: 'close', close: closeWith });
  }
  return steps;
}
