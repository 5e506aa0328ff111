/**
 * The value types and call options shared by the client and the generated service modules.
 */

/**
 * Money and other exact amounts: a decimal string on the wire and in TypeScript (`"10.00"`),
 * never a `number`, so no amount is ever rounded by binary floating point.
 */
export type Decimal = string;

/** A timestamp as RFC 3339 text (`"2100-01-01T00:00:00Z"`), as the server sends it. */
export type DateTime = string;

/** Options of one call. */
export interface CallOptions {
  /**
   * How long the call may take, in milliseconds: sent to the server as `params._meta.timeoutMs`
   * (it then answers `DeadlineExceeded`) and enforced here too (`Timeout`, and the server is
   * told to cancel). Defaults to the client's `defaultTimeoutMs` (none unless set).
   */
  timeoutMs?: number;
  /** Aborting it rejects the call with the signal's reason and sends `$/cancelRequest`. */
  signal?: AbortSignal;
}

/** Options of a call to a method that changes state (`x-mutates` in the OpenRPC document). */
export interface MutationOptions extends CallOptions {
  /** Sent as `params._meta.idempotencyKey`: a repeated call with the same key and params gets the first answer. */
  idempotencyKey?: string;
}

/** What the generated service proxies call through: a client. */
export interface Caller {
  /** Calls `method` with `params` and resolves with its result. */
  call<T = unknown>(method: string, params?: unknown, options?: MutationOptions): Promise<T>;
}
