/** Building the most specific error class for a JSON-RPC error object received from the server. */

import { DomainError, GATEWAY_ERRORS, RpcError, isObject, type RpcErrorClass } from "./errors.js";
import { DOMAIN_ERRORS } from "./generated/errors/index.js";

/** The class for an error code: a gateway error, a generated domain error, else `DomainError`/`RpcError`. */
export function errorClass(code: number): RpcErrorClass {
  return GATEWAY_ERRORS.get(code) ?? DOMAIN_ERRORS.get(code) ?? (code <= -33000 ? DomainError : RpcError);
}

/** The error for a wire error object `{code, message, data}`. */
export function errorFromWire(error: unknown): RpcError {
  if (!isObject(error) || typeof error["code"] !== "number" || !Number.isInteger(error["code"])) {
    return new RpcError(-32603, `malformed error object: ${JSON.stringify(error)}`, error);
  }
  const code = error["code"];
  const message = typeof error["message"] === "string" ? error["message"] : "";
  const Class = errorClass(code);
  return new Class(code, message, error["data"]);
}
