/**
 * Typed errors of ex-streams. Every error is a plain `class XxxError extends Error` with `name` set and
 * structured, readonly fields. None of them ever carries a secret key, a signature, a 2FA token or a
 * listen key in its message, its fields or its `toString()`.
 *
 * @module
 */
export { DecodeError } from './decodeError';
export type { DecodeErrorKind } from './decodeError';
export { RequestRejectedError, RequestFailedError, RateLimitedError, RequestTimeoutError } from './requestErrors';
export { ConfigError } from './configError';
export { ConnectionClosedError, HeartbeatTimeoutError, SendQueueFullError } from './connectionErrors';
export type { ConnectionFailure, ConnectionClosedDetails } from './connectionErrors';
export { SubscriptionRejectedError, SubscriptionRetriedError, TopicQuarantinedError } from './subscriptionErrors';
export type { SubscriptionRetryKind } from './subscriptionErrors';
export { EventTimeOutOfRangeError } from './eventTimeOutOfRangeError';
export { OrderRuleError, OrderOutcomeUnknownError, BatchOutcomeUnknownError, OrderNotPlacedError, OrderMismatchError } from './orderErrors';
export type { OrderRule, OrderInDoubt, OrderIdentity } from './orderErrors';
