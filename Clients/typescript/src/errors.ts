/**
 * The errors of the payrpc client. Everything a call rejects with is a `PayRpcError`:
 *
 * - `RpcError`: the server answered with a JSON-RPC error; one subclass per gateway condition
 *   (`MethodNotFound`, `InvalidParams`, `Cancelled`, `DeadlineExceeded`, ...) and, generated
 *   in each service module, one per domain error (`tatra.WrongPinError`) with typed `data`;
 * - `Timeout`: the call took longer than its `timeoutMs` (a `DeadlineExceeded` answer from the
 *   server is `instanceof Timeout` too);
 * - `ValidationError`: params, a result or a notification broke its schema;
 * - `ConnectionClosed`: the connection ended before the answer arrived.
 */

/** The base of every error this package raises. */
export class PayRpcError extends Error {
  override get name(): string {
    return this.constructor.name;
  }
}

/** The connection ended (the server exited, died or closed it) before the answer arrived. */
export class ConnectionClosed extends PayRpcError {}

/** A call took longer than its timeout (raised locally; also matches `DeadlineExceeded`). */
export class Timeout extends PayRpcError {
  /** `instanceof Timeout` holds for local timeouts and for the server's `DeadlineExceeded`. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return this === Timeout && value instanceof DeadlineExceeded;
  }
}

/** One schema violation: where (a JSON Pointer), which rule, and what is wrong. */
export interface Violation {
  readonly pointer: string;
  readonly keyword: string;
  readonly message: string;
}

/**
 * A message broke its JSON Schema. For params it is raised before anything is sent.
 * `what` names the message ("params of tatra.executePayment"), `violations` lists every
 * problem, `pointer` is the JSON Pointer of the first.
 */
export class ValidationError extends PayRpcError {
  readonly pointer: string;

  constructor(readonly what: string, readonly violations: readonly Violation[]) {
    super(`invalid ${what}: ${violations.map((v) => `${v.pointer || "/"}: ${v.message} (${v.keyword})`).join("; ")}`);
    this.pointer = violations[0]?.pointer ?? "";
  }
}

/** The server answered with a JSON-RPC error object `{code, message, data}` (`message` is the server's). */
export class RpcError extends PayRpcError {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

/** -32700: the server could not parse a line as JSON. */
export class ParseError extends RpcError {
  static readonly code = -32700;
}

/** -32600: the message is not a valid JSON-RPC request (or a line or batch was too large). */
export class InvalidRequest extends RpcError {
  static readonly code = -32600;
}

/** -32601: the server serves no method of that name. */
export class MethodNotFound extends RpcError {
  static readonly code = -32601;
}

/** -32602: the params broke the method's schema; `violations` lists every one. */
export class InvalidParams extends RpcError {
  static readonly code = -32602;
  /** The server's list of violations (from `data.violations`). */
  readonly violations: readonly Violation[];

  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    const raw = isObject(data) && Array.isArray(data["violations"]) ? data["violations"] : [];
    this.violations = raw.filter(isObject).map((v) => ({
      pointer: String(v["pointer"] ?? ""),
      keyword: String(v["keyword"] ?? ""),
      message: String(v["message"] ?? ""),
    }));
  }
}

/** -32603: the server failed; the cause is in its log. */
export class InternalError extends RpcError {
  static readonly code = -32603;
}

/** -32800: the request was cancelled with `$/cancelRequest`. */
export class Cancelled extends RpcError {
  static readonly code = -32800;
}

/** -32001: the connection must send `rpc.hello` with the server's token first. */
export class Unauthenticated extends RpcError {
  static readonly code = -32001;
}

/** -32002: a server limit was reached; try again later. */
export class Overloaded extends RpcError {
  static readonly code = -32002;
}

/** -32003: the request's deadline passed on the server (also `instanceof Timeout`). */
export class DeadlineExceeded extends RpcError {
  static readonly code = -32003;
}

/** -32004: the server is draining and takes no new work. */
export class ShuttingDown extends RpcError {
  static readonly code = -32004;
}

/** -32005: the idempotency key was used before with different params. */
export class IdempotencyConflict extends RpcError {
  static readonly code = -32005;
}

/** -32006: the method exists only when the server runs in sandbox mode. */
export class SandboxOnly extends RpcError {
  static readonly code = -32006;
}

/** -32007: the server's own result or notification broke its schema. */
export class InvalidResult extends RpcError {
  static readonly code = -32007;
}

/** -32008: the store is full; the write was not made, reads still work, retry once space is freed. */
export class StoreFull extends RpcError {
  static readonly code = -32008;
}

/**
 * -32009: the server's shared database (a PostgreSQL store) cannot be reached; retryable. The
 * call was not done, or, when the database went away during its commit, its outcome is unknown
 * (docs/deploy.md). Call again once it is back.
 */
export class StoreUnavailable extends RpcError {
  static readonly code = -32009;

  /** Whether the server says a repeat of the call may succeed (`data.retryable`; true). */
  get retryable(): boolean {
    return isObject(this.data) && this.data["retryable"] === true;
  }
}

/**
 * A service's own error (codes -33000 and below). `data` carries `type`, `status` (a gRPC
 * status name) and the error's fields; the generated subclass of each error types it.
 */
export class DomainError extends RpcError {
  /** The service whose error this is (set by the generated subclasses). */
  static readonly service: string | undefined = undefined;

  /** `data.type`: which error this is, in the service's own words. */
  get type(): string | undefined {
    return isObject(this.data) && typeof this.data["type"] === "string" ? this.data["type"] : undefined;
  }

  /** `data.status`: the gRPC canonical status name. */
  get status(): string | undefined {
    return isObject(this.data) && typeof this.data["status"] === "string" ? this.data["status"] : undefined;
  }
}

/** A class of `RpcError` that can be built from a wire error (every class above and the generated ones). */
export type RpcErrorClass = new (code: number, message: string, data?: unknown) => RpcError;

/** The gateway errors by code. */
export const GATEWAY_ERRORS: ReadonlyMap<number, RpcErrorClass> = new Map<number, RpcErrorClass>(
  [
    ParseError,
    InvalidRequest,
    MethodNotFound,
    InvalidParams,
    InternalError,
    Cancelled,
    Unauthenticated,
    Overloaded,
    DeadlineExceeded,
    ShuttingDown,
    IdempotencyConflict,
    SandboxOnly,
    InvalidResult,
    StoreFull,
    StoreUnavailable,
  ].map((cls) => [cls.code, cls]),
);

/** Whether a value is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
