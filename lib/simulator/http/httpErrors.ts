/**
 * An HTTP rejection of the simulator: status and the `{ code, msg }` body.
 * @internal
 */
export interface HttpRejection {
  readonly status: number;
  /** A number, or text as HashKey sends some codes (`'0003'`). */
  readonly code: number | string;
  readonly msg: string;
}

const r = (status: number, code: number | string, msg: string): HttpRejection => ({ status, code, msg });

/**
 * The simulator's error table (documented in docs/simulator.md). The specification shows no codes; order
 * refusals use the codes and messages the BHEX / HashKey family documents, the others are the simulator's
 * choice.
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
  invalidOrderType: r(400, -1116, 'Invalid orderType.'),
  invalidTimeInForce: r(400, -1115, 'Invalid timeInForce.'),
  parameterCombination: r(400, -1128, 'Combination of optional parameters invalid.'),
  priceTooHigh: r(400, -1132, 'Order price too high.'),
  priceTooLow: r(400, -1133, 'Order price lower than the minimum,please check general broker info.'),
  priceTooPrecise: r(400, -1134, 'Order price decimal too long,please check general broker info.'),
  quantityTooLarge: r(400, -1135, 'Order quantity too large.'),
  quantityTooSmall: r(400, -1136, 'Order quantity lower than the minimum.'),
  quantityTooPrecise: r(400, -1137, 'Order quantity decimal too long.'),
  orderFilled: r(400, -1139, 'Order has been filled.'),
  notionalTooSmall: r(400, -1140, 'Transaction amount lower than the minimum.'),
  duplicateClientOrderId: r(400, -1141, 'Duplicate clientOrderId'),
  orderCanceled: r(400, -1142, 'Order has been canceled'),
  amountTooPrecise: r(400, -1148, 'Market order amount decimal too long'),
  amountTooLarge: r(400, -1206, 'Orders over the maximum transaction amount'),
  insufficientBalance: r(400, -2010, 'Order rejected: account has insufficient balance for requested action.'),
  wouldTake: r(400, -2010, 'Order would immediately match and take.'),
  unknownOrder: r(400, -2013, 'Order does not exist.'),
  /** What HashKey answers a cancel of all open orders without `symbol` (the message ccxt's hashkey records). */
  symbolRequired: r(400, -100012, 'Parameter symbol [String] missing!'),
  /** HashKey's rate limit answered as a plain rejection (HashKey Exchange "Error Codes": 0003, HTTP 400). */
  rateLimitCode: r(400, '0003', 'Rate limit exceeded'),
  batchTooLarge: r(400, -1130, 'Invalid data sent for parameter \'orders\': 1 to 20 orders of one symbol.'),
} as const;

/** The fault-injection rejection defaults (`rejectNextRequests`). @internal */
export const faultRejection: HttpRejection = r(429, -1003, 'Request rejected by fault injection.');
