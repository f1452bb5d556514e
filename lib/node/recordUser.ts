import { merge, type Observable } from 'rxjs';
import { userStream, type UserStream, type UserStreamConfig } from '../user/userStream';
import { recorderCore } from './internal/recorderCore';
import { recordingOutput } from './internal/recordingOutput';
import type { RecordingOutputOptions } from './recordingOutputOptions';
import type { RecordingProgress } from './recordingProgress';

/**
 * Options of {@link recordUser}: the user stream's config, and where and how to write.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import type { RecordUserOptions } from 'ex-streams/node';
 * declare const rest: ReturnType<typeof restClient>;
 * const options: RecordUserOptions = { user: { url: 'wss://stream.example.com/api/v1/ws', rest }, out: './rec/private' };
 * ```
 */
export interface RecordUserOptions extends RecordingOutputOptions {
  /** The `userStream` config (its `url` without the key, its `rest`); `scheduler` and `WebSocketCtor` are the recorder's. */
  readonly user: Omit<UserStreamConfig, 'scheduler' | 'WebSocketCtor'>;
}

/**
 * A running user-stream recording (see {@link recordUser}).
 *
 * @example
 * ```ts
 * import type { UserRecording } from 'ex-streams/node';
 * declare const recording: UserRecording;
 * recording.user.orders$.subscribe((orders) => console.log(orders.size)); // the recorded stream, live
 * await recording.stop();
 * ```
 */
export interface UserRecording {
  /** The user stream being recorded. */
  readonly user: UserStream;
  /** Messages, bytes and files, at each flush and once at the end. */
  readonly progress$: Observable<RecordingProgress>;
  /** Unsubscribes, waits for the socket to close (at most 2 s), ends the last file, writes the manifest complete. */
  stop(): Promise<void>;
}

/**
 * Records a private user stream, only when asked this way: as {@link recordMarket} does, through a tap on the
 * stream's socket (frames, opens, closes, and its `gaps$` as `gap` lines of kind `user`; files
 * `user-<UTC time>-<n>.jsonl.gz`, `stream: 'private'`). Neither the
 * listen key nor any address is written: the key (the address's last segment) is redacted (`***`) from every frame
 * before it is written, file names hold no key, closes keep their code only. The API key and secret are the REST
 * client's and never reach the socket. It subscribes the event streams (execution reports, account updates, tickets)
 * while it runs; `user` is that `UserStream`, to use the same data live.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import { recordUser } from 'ex-streams/node';
 * const rest = restClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env['API_KEY'] ?? '', secretKey: process.env['SECRET_KEY'] ?? '' });
 * const rec = recordUser({ user: { url: 'ws://127.0.0.1:8080/api/v1/ws', rest }, out: 'rec-private' });
 * process.once('SIGINT', () => void rec.stop());
 * ```
 */
export function recordUser(options: RecordUserOptions): UserRecording {
  const { user: config } = options;
  const output = recordingOutput(options);
  const { scheduler, onError } = output;
  const core = recorderCore({ ...output, prefix: 'user', stream: 'private', symbols: [], topics: ['private'] });
  const user = userStream({ ...config, scheduler, WebSocketCtor: core.WebSocketCtor });
  const subscription = merge(user.executionReports$, user.accountUpdates$, user.tickets$).subscribe({ error: onError });
  subscription.add(
    user.gaps$.subscribe((g) =>
      core.write({ t: scheduler.now(), k: 'gap', kind: 'user', epoch: g.epoch, downSince: g.downSince, reconnectedAt: g.reconnectedAt, keyChanged: g.keyChanged }),
    ),
  );
  return { user, progress$: core.progress$, stop: () => core.stop(() => subscription.unsubscribe()) };
}
