/**
 * Beside the private path (see `userCore`): the items of the key sessions (starts, statuses, errors) joined into one life (epochs, gaps).
 * @internal
 * @module
 */
import { defer, Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { nowMs } from '../../internal/clock';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { SessionItem, UserItem } from './items';
import type { FrameClock } from './keySession';

/**
 * Joins the sessions of successive listen keys into one life: renumbers connection epochs so they keep
 * increasing across keys (each key gets a fresh connection whose epochs start at 1), and emits a gap item
 * before the status of every open that follows an earlier open (reconnect or key change).
 *
 * A gap starts at the last frame received on the lost socket (`frameClock`, written by the sessions and
 * cleared here at each open), or at that socket's open when it delivered nothing: not when the loss was noticed (a half-open socket is noticed
 * a heartbeat timeout later, and everything the service wrote meanwhile is lost). The open status that ends
 * a gap carries the same `downSince`.
 * @internal
 */
export function trackSessions(scheduler: SchedulerLike, frameClock: FrameClock): OperatorFunction<SessionItem, UserItem> {
  return (source) =>
    defer(() => {
      let base = 0; // opens of the previous sessions
      let opens = 0; // highest epoch opened in the current session
      let everOpen = false;
      let up = false;
      let downSince: number | undefined;
      let keyChanged = false;
      let openedAt: number | undefined; // when the socket now up opened
      /** The end of delivery on the socket that was up: its last frame, or its open when it gave none. */
      const lastDelivery = (): number => frameClock.lastFrameAt ?? openedAt ?? nowMs(scheduler);

      const onStatus = (status: ConnectionStatus): UserItem[] => {
        const epoch = base + status.epoch;
        const renumbered: UserItem = { type: 'status', status: { ...status, epoch } };
        if (status.type !== 'open') {
          if (up) downSince = lastDelivery();
          up = false;
          return [renumbered];
        }
        opens = Math.max(opens, status.epoch);
        const out: UserItem[] = [];
        let opened = renumbered;
        if (everOpen) {
          const since = Math.min(downSince ?? status.downSince ?? status.since, status.downSince ?? Infinity);
          out.push({ type: 'gap', gap: { epoch, downSince: since, reconnectedAt: status.since, keyChanged } });
          opened = { type: 'status', status: { ...status, epoch, downSince: since } };
        }
        everOpen = true;
        up = true;
        openedAt = status.since;
        frameClock.lastFrameAt = undefined; // frames of the new socket only (the open comes before its frames)
        downSince = undefined;
        keyChanged = false;
        out.push(opened);
        return out;
      };

      // A plain observer rather than `mergeMap` to arrays (events do not come this way: see keySession).
      return new Observable<UserItem>((subscriber) =>
        source.subscribe({
          next: (item) => {
            switch (item.type) {
              case 'start':
                base += opens;
                opens = 0;
                if (up) downSince = lastDelivery();
                up = false;
                keyChanged ||= item.keyChanged;
                return;
              case 'status': {
                const out = onStatus(item.status);
                for (let i = 0; i < out.length && !subscriber.closed; i++) subscriber.next(out[i]!);
                return;
              }
              case 'error':
                subscriber.next(item);
                return;
              default: {
                const never: never = item;
                subscriber.next(never);
              }
            }
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      );
    });
}
