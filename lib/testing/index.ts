/**
 * `ex-streams/testing`: a scheduler-driven test exchange and message builders, to marble-test pipelines
 * built on `marketStreams` and `userStream` without sockets or real time. Runs anywhere (no Node built-ins).
 * @module
 */

// The test exchange
export { testExchange } from './testExchange';
export type { TestExchange, TestExchangeConfig, TestExchangeServer, ScriptOptions, FaultOptions, ReplayOptions, ReplayRun } from './testExchange';
export type { ExchangeStream, SentFrame, SentFrameKind, SentFrameFilter } from './sentFrame';

// Listen keys
export { testListenKeys } from './testListenKeys';
export type { TestListenKeys, TestListenKeysConfig, ListenKeyCall, ListenKeyCallName } from './testListenKeys';

// Message builders
export {
  tradeRecord,
  depthRecord,
  klineRecord,
  realtimesRecord,
  tradeEnvelope,
  depthEnvelope,
  klineEnvelope,
  realtimesEnvelope,
  subscriptionError,
} from './publicMessages';
export type { EnvelopeOptions } from './publicMessages';
export { executionReport, outboundAccountInfo, ticketInfo, privateFrame, serverPing } from './privateMessages';
export { zipFrame } from './zipFrame';
export { gzipFrame } from './gzipFrame';

// The low-level fake socket
export { FakeWebSocket, fakeWebSocket } from './fakeWebSocket';
export type { FakeSocketLog, FakeWebSocketFactory } from './fakeWebSocket';

// Recordings and their replay
export { RecordedEventCodec } from './recording';
export type { RecordedEvent, Recording, LazyRecording, CorruptLine } from './recording';
export { RecordingCorruptError, RecordingUnreadableError } from './recordingErrors';
export type { RecordingDamage, RecordingUnreadableReason } from './recordingErrors';
export { replayMarket } from './replayMarket';
export type { ReplayMarketConfig, ReplayedMarket } from './replayMarket';
