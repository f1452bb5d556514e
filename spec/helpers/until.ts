// Waiting on a condition in integration specs whose subject has no event to await (a Redis-side state, a counter).

/** Resolves after `ms` of wall time. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How {@link until} polls. */
export interface UntilOptions {
  /** Give up after this long, in ms. Default 8000. */
  readonly timeoutMs?: number;
  /** Pause between two checks, in ms. Default 10 (a check that runs a process or asks Redis wants more). */
  readonly everyMs?: number;
  /**
   * Poll on unreferenced timers (default false): for a spec that counts the process's open handles, so the poll is
   * not one of them.
   */
  readonly unref?: boolean;
}

/**
 * Resolves once `check()` holds (polled; it may ask Redis: awaited), or rejects after the timeout with
 * `timed out waiting for <what>` (`what` may be a function, called then: to show the state that did not change).
 * `options` as a number is the timeout in ms.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  options: number | UntilOptions = {},
): Promise<void> {
  const { timeoutMs = 8000, everyMs = 10, unref = false } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, everyMs);
      if (unref) timer.unref();
    });
  }
}
