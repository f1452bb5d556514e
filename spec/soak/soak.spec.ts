import { CHAOS_FAULT_KINDS } from '../../lib/simulator';
import { runSoak, type SoakReport } from './runSoak';
import { formatSummary } from './summary';

describe('chaos soak (short)', () => {
  let report: SoakReport;

  beforeAll(async () => {
    report = await runSoak({ chaosMs: 24_000, meanFaultIntervalMs: 800, recoveryMs: 6000, seed: 7 });
    // The table is part of the test output on purpose: it is what the soak measured.
    process.stdout.write(`\n${formatSummary(report)}\n`);
  }, 60_000);

  it('injected every kind of fault at least once, most of them on open sockets', () => {
    const kinds = new Set(report.faults.map((f) => f.kind));
    expect([...kinds].sort()).toEqual([...CHAOS_FAULT_KINDS].sort());
    expect(report.faults.filter((f) => f.stream !== 'http' && f.sockets > 0).length).toBeGreaterThan(report.faults.length / 2);
  });

  it('passes every end-of-soak check', () => {
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('exercised reconnection, de-duplication, decode errors and gaps for real', () => {
    const n = report.numbers;
    expect(n.marketReconnects).toBeGreaterThan(0);
    expect(n.userReconnects).toBeGreaterThan(0);
    expect(n.keyChanges).toBeGreaterThan(0);
    expect(n.privateDelivered).toBeGreaterThan(50);
    expect(report.simFaults.duplicatedPrivateFrames).toBeGreaterThan(0);
    expect(n.decodeErrors).toBeGreaterThan(0);
    expect(report.orders.accepted).toBeGreaterThan(20);
  });

  it('heals orders$ and balances$ after the gaps: authoritative at the end and equal to the simulator\'s books', () => {
    const resync = report.checks.find((c) => c.name.startsWith('orders$ and balances$ authoritative'));
    expect(resync).toMatchObject({ ok: true });
    // seeded, then resynced after gaps; the comparison covered real orders and every asset
    expect(report.numbers.resyncs).toBeGreaterThan(1);
    expect(report.numbers.resyncOrdersCompared).toBeGreaterThan(20);
    expect(report.numbers.resyncBalancesCompared).toBe(4);
  });

  it('keeps the heap bounded', () => {
    expect(report.heapEnd - report.heapStart).toBeLessThan(64 * 1024 * 1024);
  });
});
