/**
 * ex-streams/simulator: a local server implementing the service side of the specification (Node only).
 *
 * @packageDocumentation
 */
export { startSimulator } from './core/startSimulator';
export { manualClock, realClock } from './core/clock';
export type { ManualClock, SimulatorClock } from './core/clock';
export { CHAOS_FAULT_KINDS } from './chaos/chaosTypes';
export type {
  ChaosFaultKind,
  ChaosHandle,
  ChaosOptions,
  FaultCounts,
  InjectedFault,
  SentPrivateRecord,
  TrafficReport,
} from './chaos/chaosTypes';
export type { StreamKind, StreamSelector } from './streams/streamKind';
export type { PeriodsMs, RecordedMarketOptions, SimulatorOptions } from './core/simulatorOptions';
export type { RateLimitOptions } from './http/rateLimit';
export type { Simulator } from './core/simulator';
export type { SimulatorControl } from './control/simulatorControl';
export type { InjectTradeOptions, LoseAnswersOptions, PrivateChaosOptions, RejectOptions } from './control/controlOptions';
export type { SymbolRulesOptions } from './market/symbolRules';
export type { ObservedCancel, ObservedPing, ObservedPong, ObservedReport, ObservedSubscription } from './chaos/observedReport';
export type { PrivateEventKind, SentPrivateEvent, SentReport } from './chaos/sentReport';
export { runSimulatorCli } from './cli/cli';
export type { SimulatorCliHost, SimulatorCliInfo, SimulatorCliRun } from './cli/cli';
