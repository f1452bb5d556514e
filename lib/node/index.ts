/**
 * ex-streams/node: the Node-only parts of ex-streams that the browser-safe core entry must not import: a
 * native zlib inflater for zip frames and the `ws` client, to inject explicitly; the recorder of market days
 * (`recordMarket`, files read back by `loadRecording` for `replayMarket` of `ex-streams/testing`; the errors a
 * damaged file raises, `RecordingCorruptError` and `RecordingUnreadableError`, are exported there too).
 *
 * @packageDocumentation
 */
export { nodeInflateRaw } from './nodeInflateRaw';
export { nodeWebSocket } from './nodeWebSocket';

// Recording (replay: replayMarket of ex-streams/testing)
export { recordMarket } from './recordMarket';
export type { RecordMarketOptions, RecordingOutputOptions, MarketRecording } from './recordMarket';
export { recordUser } from './recordUser';
export type { RecordUserOptions, UserRecording } from './recordUser';
export { loadRecording } from './loadRecording';
export type { LoadedRecording, LazyLoadedRecording, LoadRecordingOptions } from './loadRecording';
export type { RecordingProgress } from './recordingProgress';
export type { RecordingManifest, RecordingFileInfo } from './recordingManifest';
export { runRecordCli } from './recordCli';
export type { RecordCliHost, RecordCliRun } from './recordCli';
