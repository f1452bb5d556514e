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
export type {
  InjectTradeOptions,
  ObservedCancel,
  ObservedPing,
  ObservedPong,
  ObservedReport,
  ObservedSubscription,
  PeriodsMs,
  PrivateChaosOptions,
  PrivateEventKind,
  RejectOptions,
  SentPrivateEvent,
  SentReport,
  Simulator,
  SimulatorControl,
  SimulatorOptions,
  StreamKind,
  StreamSelector,
} from './types';
