/**
 * The call journal from a test: `client.calls` (sandbox mode only).
 *
 * The gateway journals every call a profile's connections make, every notification it sends
 * them and every HTTP exchange it makes for them (secrets masked). `client.calls` asks it:
 *
 * ```ts
 * await client.calls.verify({ method: "tatra.authorizePayment", params: { "/pincode": present }, times: 1 });
 * await client.calls.verify({ sequence: [{ method: "tatra.executePayment" }, { method: "tatra.authorizePayment" }] });
 * const entries = await client.calls.wait({ method: "pbba.paymentStatusChanged", kind: "push", timeoutMs: 2000 });
 * ```
 *
 * `verify` rejects with `CallVerificationError` and `wait` with `CallsNotSeenError`, both
 * `AssertionError`s of `node:assert` (a failed assertion to `node:test`), whose message is the
 * server's followed by every nearest miss with each pointer where it differed. Any other error
 * is the client's usual one.
 */

import { AssertionError } from "node:assert";
import { RpcError, isObject } from "./errors.js";
import type * as rpc from "./generated/services/rpc.js";
import type { SandboxProxy } from "./generated/services/sandbox.js";
import type { CallOptions, DateTime } from "./types.js";

/** A test at a JSON Pointer other than plain equality: `present`, `absent`, `pattern(...)`, `equals(...)`. */
export class Condition {
  private constructor(
    /** Which test of `rpc.CallCondition`. */
    readonly keyword: "equals" | "pattern" | "present" | "absent",
    /** Its value (`true` for `present` and `absent`). */
    readonly value: unknown,
  ) {}

  /** There must be a value at the pointer (a secret given counts, though it reads as `"***"`). */
  static readonly present = new Condition("present", true);
  /** There must be no value at the pointer. */
  static readonly absent = new Condition("absent", true);

  /** The value at the pointer must be a string containing a match of `regex` (a RegExp's source is sent). */
  static pattern(regex: string | RegExp): Condition {
    return new Condition("pattern", typeof regex === "string" ? regex : regex.source);
  }

  /** The value at the pointer must equal `value` (`equals(null)`: JSON null); a plain value in a pointer map means the same. */
  static equals(value: unknown): Condition {
    return new Condition("equals", value);
  }

  /** The wire condition at `pointer`. */
  at(pointer: string): rpc.CallCondition {
    return { pointer, [this.keyword]: this.value };
  }
}

/** There must be a value at the pointer. */
export const present = Condition.present;
/** There must be no value at the pointer. */
export const absent = Condition.absent;
/** The value at the pointer must be a string containing a match of `regex`. */
export const pattern = Condition.pattern;
/** The value at the pointer must equal `value` (what a plain value in a pointer map means). */
export const equals = Condition.equals;

/**
 * Conditions at JSON Pointers: `{ "/amount": "12.50", "/pincode": present }` (a plain value must
 * be equal), or wire conditions as they are (`[{ pointer: "/pincode", present: true }]`).
 */
export type Conditions = Readonly<Record<string, unknown>> | ReadonlyArray<rpc.CallCondition>;

/** Which journal entries: every field given must hold (`rpc.CallMatch`, with pointer maps). */
export interface CallQuery {
  /** A JSON-RPC method (canonical name or alias), or for HTTP exchanges `GET`, `POST`, ... */
  method?: string;
  /** What kind of entry: a call, a notification (`push`) or an HTTP exchange. */
  kind?: rpc.CallEntryKind;
  /** A regular expression an HTTP exchange's URL must contain a match of (a RegExp's source is sent). */
  url?: string | RegExp;
  /** Conditions on the params (of an HTTP exchange: its request body). */
  params?: Conditions;
  /** Conditions on the whole entry (`/error/code`, `/http/status`, `/result/status`). */
  entry?: Conditions;
  /** Whether the call was answered with an error, or succeeded. */
  failed?: boolean;
}

/** How many entries must match: exactly `times`, at least `atLeast`, at most `atMost` (exactly once when none is given). */
export interface CallTimes {
  times?: number;
  atLeast?: number;
  atMost?: number;
}

/** What `verify` checks: a query and how many times, or a `sequence` of queries in the order the entries arrived. */
export type CallExpectation = (CallQuery & CallTimes & { sequence?: never }) | { sequence: ReadonlyArray<CallQuery> };

/** What `wait` waits for: a query, how many (default 1), for how long on the server (default 5000 ms), after which cursor. */
export interface CallWait extends CallQuery {
  count?: number;
  /** How long the server waits, in milliseconds of real time (the call's own `options.timeoutMs` is the client's deadline). */
  timeoutMs?: number;
  /** Only entries journalled after this cursor (a page's `next` from `list()`) count. */
  after?: string;
}

/** What `find` looks for: a query and at most how many entries (default 100). */
export interface CallFind extends CallQuery {
  limit?: number;
}

/** Which page `list` reads. */
export interface CallListing {
  method?: string;
  kind?: rpc.CallEntryKind;
  since?: DateTime;
  until?: DateTime;
  limit?: number;
  cursor?: string;
}

/** The wire conditions of a pointer map (a list of wire conditions is taken as it is). */
export function conditions(given: Conditions): rpc.CallCondition[] {
  if (Array.isArray(given)) return [...(given as ReadonlyArray<rpc.CallCondition>)];
  if (!isObject(given)) throw new TypeError(`conditions are an object of JSON Pointer to condition, or an array of CallCondition, not ${JSON.stringify(given)}`);
  return Object.entries(given).map(([pointer, value]) => (value instanceof Condition ? value : Condition.equals(value)).at(pointer));
}

/** The wire match of a query (only its match fields). */
export function callMatch(query: CallQuery = {}): rpc.CallMatch {
  const match: rpc.CallMatch = {};
  if (query.method !== undefined) match.method = query.method;
  if (query.kind !== undefined) match.kind = query.kind;
  if (query.url !== undefined) match.url = typeof query.url === "string" ? query.url : query.url.source;
  if (query.params !== undefined) match.params = conditions(query.params);
  if (query.entry !== undefined) match.entry = conditions(query.entry);
  if (query.failed !== undefined) match.failed = query.failed;
  return match;
}

/** The longest rendering of a value found in an entry that a failure message shows. */
const ACTUAL_LIMIT = 200;

/**
 * The text of a journal assertion: the server's message, the ids of the entries that matched
 * (when it lists them) and each nearest miss, one line per pointer where it differed:
 *
 * ```text
 * Call verification failed: expected exactly 1 ... found 0; the nearest miss, 1.3 ...
 * nearest misses:
 *   1.3 (tatra.executePayment)
 *     /params/amount: expected equals "10.00", found "12.50"
 *     /params/reference: expected present, found nothing
 * ```
 */
export function describeCallFailure(message: string, data: unknown): string {
  const lines = [message];
  const fields = isObject(data) ? data : {};
  const matched = fields["entries"];
  if (Array.isArray(matched) && matched.length > 0) lines.push(`matched entries: ${matched.map(String).join(", ")}`);
  const misses = Array.isArray(fields["nearestMisses"]) ? fields["nearestMisses"].filter(isObject) : [];
  if (misses.length > 0) lines.push("nearest misses:");
  for (const miss of misses) {
    const method = miss["method"];
    lines.push(`  ${String(miss["entry"])}${typeof method === "string" ? ` (${method})` : ""}`);
    const differences = Array.isArray(miss["differences"]) ? miss["differences"].filter(isObject) : [];
    for (const difference of differences) {
      const found = "actual" in difference ? shown(difference["actual"]) : "nothing";
      lines.push(`    ${String(difference["pointer"])}: expected ${String(difference["expected"])}, found ${found}`);
    }
  }
  return lines.join("\n");
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= ACTUAL_LIMIT ? text : `${text.slice(0, ACTUAL_LIMIT - 1)}…`;
}

/** What `CallVerificationError` and `CallsNotSeenError` share. */
abstract class CallJournalAssertion extends AssertionError {
  /** The server's data, as its schema types it (`rpc.CallVerificationFailure`; undefined when it sent none). */
  readonly failure: rpc.CallVerificationFailure | undefined;
  /** The server's error as the client read it (`code`, `message`, `data`). */
  override readonly cause: RpcError;

  constructor(error: RpcError) {
    const failure = isObject(error.data) ? (error.data as unknown as rpc.CallVerificationFailure) : undefined;
    super({ message: describeCallFailure(error.message, error.data), actual: failure?.matched, expected: failure?.expected });
    this.name = new.target.name;
    Error.captureStackTrace(this, asAssertion); // named so, and starting where the journal was asked
    this.failure = failure;
    this.cause = error;
  }

  /** Up to three entries that came nearest, nearest first. */
  get nearestMisses(): ReadonlyArray<rpc.CallMiss> {
    const misses = this.failure?.nearestMisses;
    return Array.isArray(misses) ? misses : [];
  }
}

/** -32010: `sandbox.calls.verify` found the journal not as expected (an `AssertionError` of `node:assert`). */
export class CallVerificationError extends CallJournalAssertion {
  /** The server's error code. */
  static readonly code = -32010;
}

/** -32011: `sandbox.calls.wait` ran out of time before the entries it waited for arrived (an `AssertionError`). */
export class CallsNotSeenError extends CallJournalAssertion {
  /** The server's error code. */
  static readonly code = -32011;
}

/** The assertion an error of the journal is, or the error as it was. */
function asAssertion(error: unknown): unknown {
  if (error instanceof RpcError) {
    if (error.code === CallVerificationError.code) return new CallVerificationError(error);
    if (error.code === CallsNotSeenError.code) return new CallsNotSeenError(error);
  }
  return error;
}

async function asking<T>(question: Promise<T>): Promise<T> {
  try {
    return await question;
  } catch (error) {
    throw asAssertion(error);
  }
}

/**
 * The profile's call journal: `client.calls`. Each method asks through the generated
 * `client.sandbox.calls*` proxies, with the usual call options (`timeoutMs`, `signal`).
 */
export class CallJournal {
  /** The journal asked through `sandbox` (a client's generated sandbox proxy). */
  constructor(private readonly sandbox: SandboxProxy) {}

  /** One page of the journal, oldest first (follow `page.next` as `cursor`). */
  list(listing: CallListing = {}, options?: CallOptions): Promise<rpc.CallPage> {
    return asking(this.sandbox.callsList(listing, options));
  }

  /** How many entries match (no query: every entry). */
  async count(query: CallQuery = {}, options?: CallOptions): Promise<number> {
    return (await asking(this.sandbox.callsCount(callMatch(query), options))).count;
  }

  /** The entries that match, oldest first (at most `limit`, by default 100). */
  async find(query: CallFind = {}, options?: CallOptions): Promise<rpc.CallEntry[]> {
    const params = { match: callMatch(query), ...(query.limit === undefined ? {} : { limit: query.limit }) };
    return (await asking(this.sandbox.callsFind(params, options))).entries;
  }

  /**
   * Checks the journal: the matching entries number exactly `times`, at least `atLeast` or at
   * most `atMost` (exactly once when none is given); or entries match each step of `sequence`
   * in the order they arrived (others may come between). Rejects with `CallVerificationError`
   * when they do not.
   */
  async verify(expectation: CallExpectation, options?: CallOptions): Promise<rpc.CallVerification> {
    if (expectation.sequence !== undefined) {
      const { sequence, ...rest } = expectation as { sequence: ReadonlyArray<CallQuery> } & Record<string, unknown>;
      if (Object.values(rest).some((value) => value !== undefined)) {
        throw new TypeError("a sequence is verified on its own: no match and no times, atLeast or atMost beside it");
      }
      return asking(this.sandbox.callsVerify({ sequence: sequence.map((step) => callMatch(step)) }, options));
    }
    const { times, atLeast, atMost } = expectation as CallTimes;
    const counts = { ...(times === undefined ? {} : { times }), ...(atLeast === undefined ? {} : { atLeast }), ...(atMost === undefined ? {} : { atMost }) };
    return asking(this.sandbox.callsVerify({ match: callMatch(expectation as CallQuery), ...counts }, options));
  }

  /**
   * Waits until `count` entries (default 1) match, for at most `timeoutMs` (default 5000) of real
   * time on the server, and resolves with them; with `after` only the entries journalled since
   * that cursor count. Rejects with `CallsNotSeenError` when time runs out. `options.timeoutMs`
   * is the client's own deadline for the call, as for any call: leave it above the wait's.
   */
  async wait(expectation: CallWait, options?: CallOptions): Promise<rpc.CallEntry[]> {
    const { count, timeoutMs, after } = expectation;
    const params = {
      match: callMatch(expectation),
      ...(count === undefined ? {} : { count }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(after === undefined ? {} : { after }),
    };
    return (await asking(this.sandbox.callsWait(params, options))).entries;
  }

  /** Empties the profile's journal; resolves with how many entries it removed. */
  async clear(options?: CallOptions): Promise<number> {
    return (await asking(this.sandbox.callsClear(options))).cleared;
  }
}
