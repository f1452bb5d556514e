import type { SentPrivateRecord } from '../../lib/simulator/chaos/chaosTypes';
import type { MutableFaultCounts } from '../../lib/simulator/chaos/faults';
import { Faults } from '../../lib/simulator/chaos/faults';
import { Recorder } from '../../lib/simulator/chaos/recorder';

const record = (seq: number, kind: SentPrivateRecord['kind']): SentPrivateRecord => ({
  seq,
  copy: 0,
  kind,
  E: 1000 + seq,
  at: 2000 + seq,
  sessions: 1,
  text: `{"e":"${kind}"}`,
});

const counts = (): MutableFaultCounts => new Faults().counts;

describe('Recorder', () => {
  it('keeps the first write of each trade id per symbol, with its time, in order', () => {
    const r = new Recorder();
    r.tradesSent('BTCUSDT', ['1', '2'], 100);
    r.tradesSent('BTCUSDT', ['2', '3'], 200);
    r.tradesSent('ETHUSDT', ['2'], 300);
    expect(r.sent(counts()).trades).toEqual({
      BTCUSDT: { count: 3, ids: ['1', '2', '3'], at: [100, 100, 200] },
      ETHUSDT: { count: 1, ids: ['2'], at: [300] },
    });
  });

  it('counts public messages and private events by kind, and logs each push', () => {
    const r = new Recorder();
    r.publicMessage();
    r.publicMessage();
    r.privateEvent({ kind: 'executionReport', E: 1, id: '9', status: 'NEW', sessions: 2 }, record(1, 'executionReport'));
    r.privateEvent({ kind: 'ticketInfo', E: 2, id: '7', sessions: 1 }, record(2, 'ticketInfo'));
    r.privateEvent({ kind: 'executionReport', E: 3, id: '9', status: 'FILLED', sessions: 1 }, record(3, 'executionReport'));
    const sent = r.sent(counts());
    expect(sent.publicMessages).toBe(2);
    expect(sent.privateByKind).toEqual({ executionReport: 2, ticketInfo: 1, outboundAccountInfo: 0, other: 0 });
    expect(sent.privateEvents.map((e) => [e.kind, e.id, e.status])).toEqual([
      ['executionReport', '9', 'NEW'],
      ['ticketInfo', '7', undefined],
      ['executionReport', '9', 'FILLED'],
    ]);
    expect(sent.privateLog.map((l) => l.seq)).toEqual([1, 2, 3]);
  });

  it('reports copies: later recording and later fault counts do not change a report already taken', () => {
    const r = new Recorder();
    const faults = counts();
    r.tradesSent('BTCUSDT', ['1'], 1);
    const before = r.sent(faults);
    r.tradesSent('BTCUSDT', ['2'], 2);
    r.privateEvent({ kind: 'outboundAccountInfo', E: 1, id: '', sessions: 0 }, record(1, 'outboundAccountInfo'));
    faults.drop += 1;
    expect(before.trades['BTCUSDT']).toEqual({ count: 1, ids: ['1'], at: [1] });
    expect(before.privateEvents).toEqual([]);
    expect(before.privateLog).toEqual([]);
    expect(before.privateByKind.outboundAccountInfo).toBe(0);
    expect(before.faults.drop).toBe(0);
    expect(r.sent(faults).faults.drop).toBe(1);
  });

  it('keeps the newest sentTradeIds trade ids of a pair, counts every one, and holds no more than twice that', () => {
    const r = new Recorder(3);
    const faults = counts();
    for (let i = 1; i <= 10; i++) r.tradesSent('BTCUSDT', [String(i), String(i)], i); // (each written twice: counted once)
    r.tradesSent('ETHUSDT', ['a'], 1);
    const sent = r.sent(faults);
    expect(sent.trades['BTCUSDT']).toEqual({ count: 10, ids: ['8', '9', '10'], at: [8, 9, 10] });
    expect(sent.trades['ETHUSDT']).toEqual({ count: 1, ids: ['a'], at: [1] });
    // What it holds stays bounded, however long it runs (ids evicted leave its memory of ids seen too).
    const held = (r as unknown as { tradeIds: Map<string, { ids: string[]; seen: Set<string> }> }).tradeIds.get('BTCUSDT')!;
    for (let i = 11; i <= 10_000; i++) r.tradesSent('BTCUSDT', [String(i)], i);
    expect(held.ids.length).toBeLessThan(6);
    expect(held.seen.size).toBe(held.ids.length);
    expect(r.sent(faults).trades['BTCUSDT']).toEqual({ count: 10_000, ids: ['9998', '9999', '10000'], at: [9998, 9999, 10000] });
    expect(() => new Recorder(0)).toThrow(/sentTradeIds/);
  });

  it('reports the traffic it was given, as copies', () => {
    const r = new Recorder();
    r.traffic.requests.push({ method: 'GET', url: '/api/v1/time', headers: {}, body: '' });
    r.traffic.upgrades.push('/quote/ws/v1');
    const report = r.trafficReport();
    r.traffic.frames.push({ stream: 'public', data: '{"ping":1}' });
    expect(report).toEqual({ requests: [{ method: 'GET', url: '/api/v1/time', headers: {}, body: '' }], upgrades: ['/quote/ws/v1'], frames: [] });
    expect(r.trafficReport().frames).toHaveLength(1);
  });
});
