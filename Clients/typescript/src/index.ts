/**
 * payrpc for TypeScript: `Client.spawn()` or `Client.connect({tcp} | {unix})`, then call the
 * typed proxies (`client.tatra.executePayment(...)`) generated from `Schemas/openrpc.json`.
 * Each service is also a namespace of its models and error classes (`tatra.Contact`,
 * `tatra.WrongPinError`). `client.calls` checks the sandbox's call journal from a test.
 */

export { CallJournal, CallVerificationError, CallsNotSeenError, Condition, absent, callMatch, conditions, describeCallFailure, equals, pattern, present } from "./calls.js";
export type { CallExpectation, CallFind, CallListing, CallQuery, CallTimes, CallWait, Conditions } from "./calls.js";
export { Client } from "./client.js";
export type { BatchRequest, ClientOptions, ConnectOptions, HelloParams, SpawnOptions } from "./client.js";
export * from "./errors.js";
export { DOMAIN_ERRORS } from "./generated/errors/index.js";
export { DOCUMENT } from "./generated/openrpc.js";
export * from "./generated/services/index.js";
export { NotificationStream } from "./notification-stream.js";
export type { StreamOptions } from "./notification-stream.js";
export { CANCEL_METHOD, CLIENT_NAME, PROTOCOL_VERSION } from "./protocol.js";
export type { Notification } from "./protocol.js";
export type { Address, TlsOptions } from "./transport.js";
export type { CallOptions, Caller, DateTime, Decimal, MutationOptions } from "./types.js";
export { errorClass, errorFromWire } from "./wire-errors.js";
