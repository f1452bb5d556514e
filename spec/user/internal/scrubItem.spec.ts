import { ConnectionClosedError } from '../../../lib/errors';
import type { UserItem } from '../../../lib/user/internal/items';
import { scrubItem } from '../../../lib/user/internal/scrubItem';

const KEY = 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1';

describe('scrubItem', () => {
  it('redacts a listen key from an error item, and keeps a clean one as it is', () => {
    const dirty = scrubItem({ type: 'error', error: new Error(`GET /ws/${KEY} failed`) }, [KEY]);
    expect(dirty.type === 'error' && dirty.error.message).toBe('GET /ws/*** failed');
    const error = new Error('nothing secret');
    error.stack = 'Error: nothing secret';
    const clean: UserItem = { type: 'error', error };
    expect(scrubItem(clean, [KEY])).toBe(clean);
  });

  it('redacts the cause of a reconnecting or closed status, keeping the rest of the status', () => {
    const cause = new ConnectionClosedError(4001, `key ${KEY} not valid`, true);
    const item = scrubItem({ type: 'status', status: { type: 'reconnecting', epoch: 2, attempt: 1, delayMs: 5, cause } }, [KEY]);
    expect(item.type === 'status' && item.status).toMatchObject({ type: 'reconnecting', epoch: 2, attempt: 1, delayMs: 5 });
    expect(item.type === 'status' && item.status.type === 'reconnecting' && item.status.cause.message).not.toContain(KEY);
    expect(item.type === 'status' && item.status.type === 'reconnecting' && item.status.cause).toBeInstanceOf(ConnectionClosedError);
  });

  it('passes statuses without a cause, gaps and states unchanged', () => {
    const items: UserItem[] = [
      { type: 'status', status: { type: 'open', epoch: 1, since: 5 } },
      { type: 'status', status: { type: 'closed', epoch: 1 } },
      { type: 'gap', gap: { epoch: 2, downSince: 1, reconnectedAt: 2, keyChanged: false } },
    ];
    for (const item of items) expect(scrubItem(item, [KEY])).toBe(item);
  });
});
