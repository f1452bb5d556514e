export { FakeWebSocket, fakeWebSocket } from './fakeWebSocket';
export type { FakeSocketLog, FakeWebSocketFactory } from './fakeWebSocket';
