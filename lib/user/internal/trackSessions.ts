import { defer, Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { nowMs } from '../../internal/clock';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { SessionItem, UserItem } from './items';

/**
 * Joins the sessions of successive listen keys into one life: renumbers connection epochs so they keep
 * increasing across keys (each key gets a fresh connection whose epochs start at 1), and emits a gap item
 * before the status of every open that follows an earlier open (reconnect or key change).
 * @internal
 */
export function trackSessions(scheduler: SchedulerLike): OperatorFunction<SessionItem, UserItem> {
  return (source) =>
    defer(() => {
      let base = 0; // opens of the previous sessions
      let opens = 0; // highest epoch opened in the current session
      let everOpen = false;
      let up = false;
      let downSince: number | undefined;
      let keyChanged = false;

      const onStatus = (status: ConnectionStatus): UserItem[] => {
        const epoch = base + status.epoch;
        const renumbered: UserItem = { type: 'status', status: { ...status, epoch } };
        if (status.type !== 'open') {
          if (up) downSince = nowMs(scheduler);
          up = false;
          return [renumbered];
        }
        opens = Math.max(opens, status.epoch);
        const out: UserItem[] = [];
        if (everOpen) {
          const since = status.downSince ?? downSince ?? status.since;
          out.push({ type: 'gap', gap: { epoch, downSince: since, reconnectedAt: status.since, keyChanged } });
        }
        everOpen = true;
        up = true;
        downSince = undefined;
        keyChanged = false;
        out.push(renumbered);
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
                if (up) downSince = nowMs(scheduler);
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
