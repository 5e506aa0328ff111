/**
 * The transport-free part of a connection: the protocol's constants, building requests (ids,
 * `_meta`, validation) and sorting the lines the server sends into responses and notifications.
 */

import { isObject } from "./errors.js";
import type { SchemaSet } from "./schema.js";
import type { MutationOptions } from "./types.js";

/** The protocol version this client speaks. */
export const PROTOCOL_VERSION = "2026-11";
/** What the client calls itself in `rpc.hello`. */
export const CLIENT_NAME = "payrpc-typescript/0.1.0";
/** The longest deadline the server takes in `_meta.timeoutMs` (one day). */
export const MAX_TIMEOUT_MS = 86_400_000;
/** The method name of the cancellation notification. */
export const CANCEL_METHOD = "$/cancelRequest";

/** A JSON-RPC request or notification as sent. */
export interface OutgoingMessage {
  jsonrpc: "2.0";
  id?: number;
  method: string;
  params?: unknown;
}

/** A JSON-RPC response as received. */
export interface Response {
  id: unknown;
  result?: unknown;
  error?: unknown;
}

/** A notification the server sent: its method name and params. */
export interface Notification<P = unknown> {
  readonly method: string;
  readonly params: P;
}

/** One line of NDJSON. */
export function encode(message: unknown): string {
  return JSON.stringify(message) + "\n";
}

/** A deep copy of `value` as plain JSON (drops `undefined` members; rejects what JSON cannot carry). */
export function toWire(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "number" && !Number.isFinite(v)) throw new TypeError(`cannot send ${v} as JSON`);
    if (typeof v === "bigint") throw new TypeError("cannot send a bigint as JSON (money is a decimal string)");
    return v;
  });
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** Checks a timeout in milliseconds and clamps it to what the server takes. */
export function timeoutMs(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`timeoutMs must be a positive number of milliseconds, not ${value}`);
  return Math.min(MAX_TIMEOUT_MS, Math.max(1, Math.ceil(value)));
}

/**
 * The params as sent: plain JSON, validated (without `_meta`) when `schemas` is given, with
 * the timeout and idempotency key added to `_meta`. Throws before anything is sent.
 */
export function wireParams(method: string, params: unknown, options: MutationOptions, schemas: SchemaSet | undefined): unknown {
  let wire = toWire(params);
  if (wire !== undefined && wire !== null && typeof wire !== "object") {
    throw new TypeError(`params of ${method} must be an object or an array, not ${typeof wire}`);
  }
  if (wire === null) wire = undefined;
  const meta: Record<string, unknown> = {};
  if (isObject(wire) && "_meta" in wire) {
    if (isObject(wire["_meta"])) Object.assign(meta, wire["_meta"]);
    const { _meta, ...rest } = wire;
    void _meta;
    wire = rest;
  }
  schemas?.validateParams(method, wire);
  if (options.timeoutMs !== undefined) meta["timeoutMs"] = timeoutMs(options.timeoutMs);
  if (options.idempotencyKey !== undefined) {
    const bytes = Buffer.byteLength(String(options.idempotencyKey), "utf8");
    if (typeof options.idempotencyKey !== "string" || bytes < 1 || bytes > 255) {
      throw new RangeError("idempotencyKey must be a string of 1 to 255 bytes");
    }
    meta["idempotencyKey"] = options.idempotencyKey;
  }
  if (Object.keys(meta).length === 0) return wire;
  if (Array.isArray(wire)) throw new TypeError("timeoutMs and idempotencyKey need params by name (an object), not an array");
  return { ...(wire as Record<string, unknown> | undefined), _meta: meta };
}

/** What the server sent on one line, sorted: responses (by id) and notifications. */
export interface Parsed {
  responses: Response[];
  notifications: Notification[];
  /** Messages that were neither (logged by the client). */
  problems: string[];
}

/** Parses one line from the server (a response, a batch of responses or a notification). */
export function parseLine(line: string): Parsed {
  const parsed: Parsed = { responses: [], notifications: [], problems: [] };
  const text = line.trim();
  if (!text) return parsed;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    parsed.problems.push(`the server sent a line that is not JSON: ${text.slice(0, 200)}`);
    return parsed;
  }
  for (const item of Array.isArray(message) ? message : [message]) {
    if (!isObject(item)) {
      parsed.problems.push(`the server sent a message that is not an object: ${JSON.stringify(item).slice(0, 200)}`);
    } else if ("method" in item && !("id" in item)) {
      parsed.notifications.push({ method: typeof item["method"] === "string" ? item["method"] : "", params: item["params"] });
    } else if ("id" in item && ("result" in item || "error" in item)) {
      parsed.responses.push(item as unknown as Response);
    } else {
      parsed.problems.push(`the server sent an unexpected message: ${JSON.stringify(item).slice(0, 200)}`);
    }
  }
  return parsed;
}
