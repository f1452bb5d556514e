import type { SchedulerLike, Subscription } from 'rxjs';
import type { Pacer } from './pacer';

/**
 * Sends queued frames one per pacing slot (`requestBatcher`): started a turn of the event loop after something
 * became ready (a scheduler action of 0 ms, so that a burst of requests shares frames), then frame after frame as
 * the pacer grants slots; a slot is asked for only while a frame may leave and is given back when none may any
 * more. When frames wait but may not leave yet, it looks again at the time `wakeAt` names.
 *
 * @internal
 */
export interface FramePump {
  /** A frame may be ready to leave. */
  kick(): void;
  /** A frame may no longer be ready: the slot asked for is given back when none is. */
  settle(): void;
  /** Stops every timer and gives the slot back. */
  stop(): void;
}

/** @internal */
export interface FramePumpSource {
  /** Whether a frame may leave now. */
  readonly ready: () => boolean;
  /** Sends the next frame (called in a granted slot). */
  readonly sendNext: () => void;
  /** When frames that may not leave yet should be looked at again (scheduler time; `Infinity`: not before a kick). */
  readonly wakeAt: () => number;
}

/** @internal */
export function framePump(pacer: Pacer, scheduler: SchedulerLike, source: FramePumpSource): FramePump {
  const { ready, sendNext, wakeAt } = source;
  let slot: Subscription | undefined;
  let kickAction: Subscription | undefined;
  let wake: Subscription | undefined;

  const kick = (): void => {
    if (slot !== undefined || kickAction !== undefined) return;
    if (!ready()) return armWake();
    kickAction = scheduler.schedule(() => {
      kickAction = undefined;
      flush();
    }, 0);
  };

  /** Sends frames while the pacer grants slots at once; waits for the next slot (or a wake-up) otherwise. */
  const flush = (): void => {
    while (slot === undefined && ready()) {
      let granted = false;
      const asked = pacer.slot().subscribe(() => {
        granted = true;
        if (slot === undefined) return;
        // a slot granted later: send, then go on
        slot = undefined;
        sendNext();
        flush();
      });
      if (!granted) {
        slot = asked;
        return;
      }
      sendNext();
    }
    if (slot === undefined) armWake();
  };

  function armWake(): void {
    wake?.unsubscribe();
    wake = undefined;
    const at = wakeAt();
    if (at === Infinity) return;
    wake = scheduler.schedule(() => {
      wake = undefined;
      kick();
    }, Math.max(0, at - scheduler.now()));
  }

  return {
    kick,
    settle: () => {
      if (slot !== undefined && !ready()) {
        slot.unsubscribe();
        slot = undefined;
      }
      if (slot === undefined) armWake();
    },
    stop: () => {
      for (const timer of [slot, kickAction, wake]) timer?.unsubscribe();
      slot = kickAction = wake = undefined;
    },
  };
}
