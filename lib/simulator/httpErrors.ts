/**
 * An HTTP rejection of the simulator: status and the `{ code, msg }` body.
 * @internal
 */
export interface HttpRejection {
  readonly status: number;
  readonly code: number;
  readonly msg: string;
}

const r = (status: number, code: number, msg: string): HttpRejection => ({ status, code, msg });

/**
 * The simulator's error table (documented in docs/simulator.md). Codes are the simulator's choice: the
 * specification shows none.
 * @internal
 */
export const rejections = {
  unknownEndpoint: r(404, -1020, 'Unknown endpoint.'),
  methodNotAllowed: r(405, -1014, 'Method not allowed for this endpoint.'),
  bodyTooLarge: r(413, -1104, 'Request body too large.'),
  missingApiKey: r(401, -1002, 'API-key header is missing.'),
  invalidApiKey: r(401, -2015, 'Invalid API-key.'),
  missingParameter: (name: string) => r(400, -1102, `Mandatory parameter '${name}' was not sent.`),
  duplicateParameter: (name: string) => r(400, -1101, `Duplicate values for parameter '${name}'.`),
  illegalTimestamp: r(400, -1100, "Illegal characters found in parameter 'timestamp'."),
  invalidRecvWindow: r(400, -1130, "Invalid data sent for parameter 'recvWindow': must be a positive integer."),
  outsideRecvWindow: r(400, -1021, 'Timestamp for this request is outside of the recvWindow.'),
  badSignature: r(401, -1022, 'Signature for this request is not valid.'),
  twoFactorRequired: r(403, -2030, '2FA verification is required.'),
  twoFactorInvalid: r(403, -2031, '2FA token is invalid, expired or already used.'),
  invalidParameter: (name: string) => r(400, -1130, `Invalid data sent for parameter '${name}'.`),
  tooManyRequests: r(429, -1003, 'Too many requests; current limit exceeded.'),
  banned: r(418, -1003, 'IP banned for repeated requests after 429.'),
  invalidListenKey: r(400, -1125, 'This listenKey does not exist.'),
  invalidSymbol: r(400, -1121, 'Invalid symbol.'),
  invalidSide: r(400, -1117, 'Invalid side.'),
  invalidOrderType: r(400, -1116, 'Invalid orderType: only LIMIT is supported.'),
  invalidTimeInForce: r(400, -1115, 'Invalid timeInForce: only GTC is supported.'),
  invalidQuantity: r(400, -1013, 'Invalid quantity: a positive decimal with at most 9 decimals.'),
  invalidPrice: r(400, -1131, 'Invalid price: a positive decimal with at most 9 decimals.'),
  insufficientBalance: r(400, -2010, 'Order rejected: account has insufficient balance for requested action.'),
  unknownOrder: r(400, -2011, 'Unknown order sent.'),
  orderClosed: r(400, -2013, 'Order is already closed.'),
} as const;

/** The fault-injection rejection defaults (`rejectNextRequests`). @internal */
export const faultRejection: HttpRejection = r(429, -1003, 'Request rejected by fault injection.');
