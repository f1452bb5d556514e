import type { SoakReport } from './runSoak';

const MB = 1024 * 1024;
const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;

/** The soak's summary as Markdown tables (faults, traffic, checks). */
export function formatSummary(r: SoakReport): string {
  const kinds = [...new Set(r.faults.map((f) => f.kind))].sort();
  const n = r.numbers;
  const lines = [
    `Soak: seed ${r.seed}, ${Math.round(r.chaosMs / 1000)} s of chaos (mean fault interval ${r.meanFaultIntervalMs} ms) + ${Math.round(r.recoveryMs / 1000)} s recovery, ${r.symbols.length} symbols × 4 topics + user stream`,
    '',
    row(['fault', 'injected', 'hit an open socket']),
    row(['---', '---:', '---:']),
    ...kinds.map((k) => {
      const of = r.faults.filter((f) => f.kind === k);
      return row([k, of.length, of.filter((f) => f.sockets > 0).length]);
    }),
    row(['**total**', r.faults.length, r.faults.filter((f) => f.sockets > 0).length]),
    '',
    row(['measure', 'value']),
    row(['---', '---:']),
    row(['reconnects (market / user)', `${n.marketReconnects} / ${n.userReconnects}`]),
    row(['listen-key changes', n.keyChanges]),
    row(['private events generated / written to an open session (pushes incl. duplicates)', `${n.privateEventsSent} / ${n.privateEventsWritten} (${n.privatePushes})`]),
    row(['private events delivered / deduplicated / late', `${n.privateDelivered} / ${n.privateDeduplicated} / ${n.privateLate}`]),
    row(['private events lost while a fault cut the socket', n.privateLostInFaults]),
    row(['lost and inside a signalled gap (private / trades); largest lead before downSince', `${n.privateLostInGaps} / ${n.tradesLostInGaps}; ${n.maxLeadBeforeDownSinceMs} ms`]),
    row(['duplicated / delayed private frames (simulator)', `${r.simFaults.duplicatedPrivateFrames} / ${r.simFaults.delayedPrivateFrames}`]),
    row(['gaps signalled (trade / user)', `${n.tradeGaps} / ${n.userGaps}`]),
    row(['trades delivered', n.tradesDelivered]),
    row(['decode errors reported', n.decodeErrors]),
    row(['state snapshots merged (orders$ / balances$ resyncs); compared at the end: orders / balances (reads)', `${n.resyncs}; ${n.resyncOrdersCompared} / ${n.resyncBalancesCompared} (${n.resyncReads})`]),
    row(['orders placed / accepted / rejected / failed', `${r.orders.placed} / ${r.orders.accepted} / ${r.orders.rejected} / ${r.orders.failed}`]),
    row(['requests rejected by injection', r.simFaults.rejectedRequests]),
    row(['heap after GC start → end (MB)', `${(r.heapStart / MB).toFixed(1)} → ${(r.heapEnd / MB).toFixed(1)}${r.gcAvailable ? '' : ' (no --expose-gc)'}`]),
    '',
    row(['check', 'result', 'detail']),
    row(['---', '---', '---']),
    ...r.checks.map((c) => row([c.name, c.ok ? 'ok' : '**FAIL**', c.detail])),
  ];
  return lines.join('\n');
}
