/**
 * ex-streams/simulator: a local server implementing the service side of the specification (Node only).
 *
 * @packageDocumentation
 */
export { startSimulator } from './startSimulator';
export { manualClock, realClock } from './clock';
export type { ManualClock, SimulatorClock } from './clock';
export { CHAOS_FAULT_KINDS } from './chaosTypes';
export type {
  ChaosFaultKind,
  ChaosHandle,
  ChaosOptions,
  FaultCounts,
  InjectedFault,
  SentPrivateRecord,
  TrafficReport,
} from './chaosTypes';
export type { StreamKind, StreamSelector } from './streamKind';
export type { PeriodsMs, RecordedMarketOptions, SimulatorOptions } from './simulatorOptions';
export type { RateLimitOptions } from './rateLimit';
export type { Simulator } from './simulator';
export type { SimulatorControl } from './simulatorControl';
export type { InjectTradeOptions, LoseAnswersOptions, PrivateChaosOptions, RejectOptions } from './controlOptions';
export type { SymbolRulesOptions } from './symbolRules';
export type { ObservedCancel, ObservedPing, ObservedPong, ObservedReport, ObservedSubscription } from './observedReport';
export type { PrivateEventKind, SentPrivateEvent, SentReport } from './sentReport';
export { runSimulatorCli } from './cli/cli';
export type { SimulatorCliHost, SimulatorCliInfo, SimulatorCliRun } from './cli/cli';
