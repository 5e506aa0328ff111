/** The client: one connection to a payrpc server, many calls in flight, notifications as events and streams. */

import { EventEmitter } from "node:events";
import { CallJournal } from "./calls.js";
import { ConnectionClosed, PayRpcError, Timeout, ValidationError } from "./errors.js";
import { DOCUMENT } from "./generated/openrpc.js";
import { createServices, type NotificationMap, type Services } from "./generated/services/index.js";
import type { HelloResult } from "./generated/services/rpc.js";
import { NotificationStream, type StreamOptions } from "./notification-stream.js";
import { CANCEL_METHOD, CLIENT_NAME, PROTOCOL_VERSION, encode, parseLine, wireParams, type Notification, type OutgoingMessage, type Response } from "./protocol.js";
import { SchemaSet } from "./schema.js";
import { stateArguments } from "./state.js";
import { ProcessTransport, SocketTransport, type Address, type Exit, type TlsOptions, type Transport } from "./transport.js";
import type { CallOptions, MutationOptions } from "./types.js";
import { errorFromWire } from "./wire-errors.js";

/** Options every connection takes. */
export interface ClientOptions {
  /** Validate outgoing params and incoming results and notifications with ajv (default true). */
  validate?: boolean;
  /** The OpenRPC document to validate against (default: the one the stubs were generated from). */
  document?: unknown;
  /** The timeout of every call that sets none, in milliseconds (default: none). */
  defaultTimeoutMs?: number;
  /** How long `close()` waits for the server (default 10000 ms); a child still running is then terminated. */
  closeTimeoutMs?: number;
  /** Called with every line sent and received (for debugging and tests). */
  trace?: (direction: "send" | "receive", line: string) => void;
}

/** Options of `Client.spawn()`. */
export interface SpawnOptions extends ClientOptions {
  /** The payrpc binary (default: `$PAYRPC_BIN`, else `payrpc` on PATH). */
  binary?: string;
  /** More arguments after `serve --stdio` (`["--seed", "7"]`). */
  args?: readonly string[];
  /**
   * Keep the server's state (store, server key) in this directory (`--data`), where the next
   * server spawned with it finds it again. Default: none, see `ephemeral`.
   */
  dataDir?: string;
  /**
   * Without `dataDir`: `true` (the default) starts `serve --ephemeral`, whose state lives in a
   * temporary directory removed when it exits, so every spawned server starts clean; `false`
   * keeps it in the server's default data directory (`$XDG_DATA_HOME/payrpc`, else
   * `~/.local/share/payrpc`).
   */
  ephemeral?: boolean;
  /** The child's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** The child's working directory. */
  cwd?: string;
  /** Say `rpc.hello` with this profile first. */
  profile?: string;
}

/** Options of `Client.connect()`: an address (`tcp` or `unix`) and what to say in `rpc.hello`. */
export type ConnectOptions = ClientOptions &
  Address & {
    /** The server's token (`serve --auth-token-file`), sent in `rpc.hello` first. */
    token?: string;
    /** Say `rpc.hello` with this profile first. */
    profile?: string;
    /** How long to try to connect (default 10000 ms). */
    connectTimeoutMs?: number;
    /** Speak TLS over the `tcp` address, trusting `ca` (a certificate it does not trust fails `connect`). */
    tls?: TlsOptions;
  };

/** What `rpc.hello` says besides the client's name and protocol version. */
export interface HelloParams {
  token?: string;
  profile?: string;
  seed?: number;
}

/** One entry of a batch: a call (answered) or, with `notify: true`, a notification. */
export interface BatchRequest {
  method: string;
  params?: unknown;
  notify?: boolean;
  idempotencyKey?: string;
}

interface Group {
  readonly ids: readonly number[];
  readonly responses: Map<number, Response>;
  resolve(): void;
  reject(error: unknown): void;
}

/** The generated service proxies (`client.tatra`, `client.pbba`, ...), set in the constructor. */
export interface Client extends Services {}

/**
 * A connection to a payrpc server. Open one with `Client.spawn()` (a child `payrpc serve
 * --stdio`) or `Client.connect({tcp} | {unix})`, and always `close()` it. Any number of calls
 * may be in flight. Generated service proxies hang off it: `client.tatra.fetchSetupData()`.
 *
 * It is an EventEmitter: `"notification"` (every valid notification), `"<method>"` (its
 * params, e.g. `"pbba.popupDidExpire"`), `"invalidNotification"` (a `ValidationError` and the
 * notification), `"stderr"` (each log line of a spawned server), `"protocolError"` (a line that
 * was not JSON-RPC) and `"close"` (the connection ended).
 */
export class Client extends EventEmitter {
  /** The timeout of every call that sets none, in milliseconds. */
  defaultTimeoutMs: number | undefined;
  /**
   * The profile's call journal (sandbox mode only): `client.calls.verify({ method, params, times })`,
   * `count`, `find`, `wait`, `list`, `clear`; failures reject with `CallVerificationError` and
   * `CallsNotSeenError`, `AssertionError`s of `node:assert`.
   */
  readonly calls: CallJournal;
  private readonly schemas: SchemaSet | undefined;
  private readonly pending = new Map<number, Group>();
  private readonly streams = new Set<NotificationStream<unknown>>();
  private readonly closeTimeoutMs: number;
  private readonly trace: ClientOptions["trace"];
  private nextId = 1;
  private ended = false;
  private closing: Promise<number | null> | undefined;
  private token: string | undefined;
  private exit: Exit | undefined;

  private constructor(private readonly transport: Transport, options: ClientOptions) {
    super();
    this.schemas = options.validate === false ? undefined : new SchemaSet(options.document ?? DOCUMENT);
    this.defaultTimeoutMs = options.defaultTimeoutMs;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
    this.trace = options.trace;
    Object.assign(this, createServices(this));
    this.calls = new CallJournal(this.sandbox);
    if (transport instanceof ProcessTransport) {
      transport.forwardLog((line) => this.safeEmit("stderr", line));
      void transport.exited.then((exit) => (this.exit = exit));
    }
    transport.start(
      (line) => this.onLine(line),
      () => this.onEnd(),
    );
  }

  /**
   * Starts `payrpc serve --stdio [args...]` and connects to it. `close()` ends its stdin, so it
   * drains and exits, and waits for that; a server that does not exit in `closeTimeoutMs` is
   * terminated. The server starts clean and forgets everything when it exits unless `dataDir`
   * or `ephemeral: false` keeps its state.
   */
  static async spawn(options: SpawnOptions = {}): Promise<Client> {
    const binary = options.binary ?? process.env["PAYRPC_BIN"] ?? "payrpc";
    const args = options.args ?? [];
    const argv = ["serve", "--stdio", ...stateArguments(args, options.dataDir, options.ephemeral), ...args];
    let transport: ProcessTransport;
    try {
      transport = await ProcessTransport.start(binary, argv, options.env, options.cwd);
    } catch (error) {
      throw new PayRpcError(`cannot start the payrpc binary ${JSON.stringify(binary)} (set binary, PAYRPC_BIN or PATH): ${String(error)}`);
    }
    return Client.open(transport, options, undefined, options.profile);
  }

  /** Connects to `payrpc serve --tcp host:port` or `--unix path`; with a token or profile, says `rpc.hello` first. */
  static async connect(options: ConnectOptions): Promise<Client> {
    const transport = await SocketTransport.connect(options, options.connectTimeoutMs ?? 10_000, options.tls);
    return Client.open(transport, options, options.token, options.profile);
  }

  private static async open(transport: Transport, options: ClientOptions, token?: string, profile?: string): Promise<Client> {
    let client: Client;
    try {
      client = new Client(transport, options);
    } catch (error) {
      transport.destroy();
      throw error;
    }
    if (token === undefined && profile === undefined) return client;
    try {
      await client.hello({ ...(token === undefined ? {} : { token }), ...(profile === undefined ? {} : { profile }) });
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  /** Sends `rpc.hello` (client name, protocol version, token, profile); the token once accepted is sent with every later hello. */
  async hello(params: HelloParams = {}, options?: CallOptions): Promise<HelloResult> {
    const token = params.token ?? this.token;
    const answer = await this.call<HelloResult>("rpc.hello", {
      client: CLIENT_NAME,
      protocolVersion: PROTOCOL_VERSION,
      ...params,
      ...(token === undefined ? {} : { token }),
    }, options);
    this.token = token;
    return answer;
  }

  /**
   * Calls a method and resolves with its result (plain JSON). Rejects with `ValidationError`
   * before sending when the params break the schema (or when the result does), `RpcError` (the
   * most specific subclass) when the server answers an error, `Timeout` when `timeoutMs` passes
   * (the server is told to cancel), the signal's reason when it aborts (likewise), and
   * `ConnectionClosed` when the connection ends first.
   */
  async call<T = unknown>(method: string, params?: unknown, options: MutationOptions = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const wire = wireParams(method, params, { ...options, timeoutMs }, this.schemas);
    const id = this.nextId++;
    const message: OutgoingMessage = { jsonrpc: "2.0", id, method, ...(wire === undefined ? {} : { params: wire }) };
    const responses = await this.exchange([id], encode(message), timeoutMs, options.signal, method);
    return this.outcome(method, responses.get(id)) as T;
  }

  /** Sends a notification (no answer). Throws `ConnectionClosed` when the connection has ended. */
  notify(method: string, params?: unknown): void {
    const wire = method === CANCEL_METHOD ? params : wireParams(method, params, {}, this.schemas);
    this.send(encode({ jsonrpc: "2.0", method, ...(wire === undefined ? {} : { params: wire }) }));
  }

  /**
   * Sends several calls (and notifications) as one JSON-RPC batch, every params validated
   * first. Resolves with one item per entry, in order: the result, the error (an `RpcError` or
   * `ValidationError`, not thrown) of a call that failed, or undefined for a notification.
   */
  async batch(entries: ReadonlyArray<BatchRequest | readonly [string, unknown?]>, options: CallOptions = {}): Promise<unknown[]> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const messages: OutgoingMessage[] = [];
    const order: Array<{ id: number; method: string } | undefined> = [];
    for (const entry of entries) {
      const request: BatchRequest = Array.isArray(entry) ? { method: entry[0], params: entry[1] } : (entry as BatchRequest);
      const callOptions = request.notify ? {} : { timeoutMs, ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }) };
      const wire = wireParams(request.method, request.params, callOptions, this.schemas);
      const message: OutgoingMessage = { jsonrpc: "2.0", method: request.method, ...(wire === undefined ? {} : { params: wire }) };
      if (request.notify) {
        order.push(undefined);
      } else {
        message.id = this.nextId++;
        order.push({ id: message.id, method: request.method });
      }
      messages.push(message);
    }
    if (messages.length === 0) throw new RangeError("a batch needs at least one entry");
    const ids = order.flatMap((o) => (o ? [o.id] : []));
    const responses = await this.exchange(ids, encode(messages), timeoutMs, options.signal, "batch");
    return order.map((o) => {
      if (o === undefined) return undefined;
      try {
        return this.outcome(o.method, responses.get(o.id));
      } catch (error) {
        if (error instanceof PayRpcError) return error;
        throw error;
      }
    });
  }

  /** Calls `listener(params, notification)` for each valid notification `method`; returns a function that removes it. */
  onNotification<M extends keyof NotificationMap & string>(method: M, listener: (params: NotificationMap[M], notification: Notification<NotificationMap[M]>) => void): () => void {
    const handler = listener as (...args: unknown[]) => void;
    this.on(method, handler);
    return () => this.off(method, handler);
  }

  /**
   * An async iterator of the notifications (of `method`, or all) arriving from now on:
   * `for await (const n of client.notifications("pbba.popupDidExpire")) ...`.
   */
  notifications<M extends keyof NotificationMap & string>(method: M, options?: StreamOptions): NotificationStream<NotificationMap[M]>;
  notifications(method?: string, options?: StreamOptions): NotificationStream<unknown>;
  notifications(method?: string, options: StreamOptions = {}): NotificationStream<unknown> {
    const stream = new NotificationStream<unknown>(method, options, (s) => this.streams.delete(s));
    this.streams.add(stream);
    if (this.ended) stream.end();
    return stream;
  }

  /** Whether the connection has ended (closed by `close()`, or by the server). */
  get closed(): boolean {
    return this.ended || this.closing !== undefined;
  }

  /** The process id of a spawned server. */
  get pid(): number | undefined {
    return this.transport instanceof ProcessTransport ? this.transport.child.pid : undefined;
  }

  /** The exit code of a spawned server once it has exited (null when a signal ended it). */
  get exitCode(): number | null | undefined {
    return this.exit?.code;
  }

  /**
   * Ends the connection and waits: a spawned server sees the end of its input, answers what is
   * in flight and exits (it is terminated if it takes longer than `closeTimeoutMs`); a socket
   * waits for the answers in flight. Calls still waiting then reject with `ConnectionClosed`.
   * Resolves with a spawned server's exit code (null for sockets or a signal).
   */
  close(): Promise<number | null> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<number | null> {
    const transport = this.transport;
    transport.end();
    if (transport instanceof ProcessTransport) {
      let exit = await within(transport.exited, this.closeTimeoutMs);
      if (exit === undefined) {
        transport.child.kill("SIGTERM");
        exit = await within(transport.exited, 2_000);
        if (exit === undefined) {
          transport.destroy();
          exit = await transport.exited;
        }
      }
      this.exit = exit;
      this.failPending("the server exited before the answer arrived");
      return exit.code;
    }
    const answered = new Promise<void>((resolve) => {
      const check = (): void => {
        if (this.pending.size === 0 || this.ended) resolve();
        else setTimeout(check, 10);
      };
      check();
    });
    await within(answered, this.closeTimeoutMs);
    transport.destroy();
    this.failPending("the connection closed before the answer arrived");
    return null;
  }

  // Internals --------------------------------------------------------------------------------

  private send(line: string): void {
    if (this.ended || this.closing !== undefined || !this.transport.write(line)) throw new ConnectionClosed("the connection is closed");
    this.trace?.("send", line.trimEnd());
  }

  /** Registers `ids`, writes `line`, and resolves with their responses; handles timeout, abort and the end of the connection. */
  private exchange(ids: readonly number[], line: string, timeoutMs: number | undefined, signal: AbortSignal | undefined, what: string): Promise<Map<number, Response>> {
    signal?.throwIfAborted();
    const responses = new Map<number, Response>();
    if (ids.length === 0) {
      this.send(line);
      return Promise.resolve(responses);
    }
    return new Promise<Map<number, Response>>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => abandon(signal?.reason ?? new Error("aborted"));
      const cleanup = (): void => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        for (const id of ids) this.pending.delete(id);
      };
      const abandon = (error: unknown): void => {
        const unanswered = ids.filter((id) => this.pending.has(id));
        cleanup();
        for (const id of unanswered) {
          if (!this.ended && this.closing === undefined) {
            try {
              this.send(encode({ jsonrpc: "2.0", method: CANCEL_METHOD, params: { id } }));
            } catch {
              // closed meanwhile: nothing to cancel
            }
          }
        }
        reject(error);
      };
      const group: Group = {
        ids,
        responses,
        resolve: () => {
          cleanup();
          resolve(responses);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      };
      for (const id of ids) this.pending.set(id, group);
      try {
        this.send(line);
      } catch (error) {
        cleanup();
        reject(error);
        return;
      }
      if (timeoutMs !== undefined) timer = setTimeout(() => abandon(new Timeout(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private outcome(method: string, response: Response | undefined): unknown {
    if (response === undefined) throw new ConnectionClosed(`no answer to ${method}`);
    if ("error" in response && response.error !== undefined) throw errorFromWire(response.error);
    this.schemas?.validateResult(method, response.result);
    return response.result;
  }

  private onLine(line: string): void {
    this.trace?.("receive", line);
    const parsed = parseLine(line);
    for (const problem of parsed.problems) this.safeEmit("protocolError", problem);
    for (const response of parsed.responses) this.onResponse(response);
    for (const notification of parsed.notifications) this.dispatch(notification);
  }

  private onResponse(response: Response): void {
    if (response.id === null || response.id === undefined) {
      // An error the server could not tie to a request: it belongs to the one request (or batch) in flight, if only one is.
      const groups = new Set(this.pending.values());
      if (groups.size === 1) {
        for (const group of groups) for (const id of group.ids) this.onResponse({ ...response, id });
      } else {
        this.safeEmit("protocolError", `the server reported an error without an id: ${JSON.stringify(response.error)}`);
      }
      return;
    }
    const id = typeof response.id === "number" ? response.id : Number.NaN;
    const group = this.pending.get(id);
    if (group === undefined) return; // an answer to a call that gave up (timeout, abort)
    this.pending.delete(id);
    group.responses.set(id, response);
    if (group.ids.every((i) => group.responses.has(i))) group.resolve();
  }

  private dispatch(notification: Notification): void {
    let problem: ValidationError | undefined;
    try {
      this.schemas?.validateNotification(notification.method, notification.params);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problem = error;
    }
    for (const stream of this.streams) stream.offer(notification, problem);
    if (problem) {
      this.safeEmit("invalidNotification", problem, notification);
      return;
    }
    this.safeEmit("notification", notification);
    this.safeEmit(notification.method, notification.params, notification);
  }

  /** Emits without letting a listener's exception break the reading of the connection (it is rethrown on its own). */
  private safeEmit(event: string, ...args: unknown[]): void {
    try {
      this.emit(event, ...args);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  }

  private onEnd(): void {
    if (this.ended) return;
    this.ended = true;
    for (const stream of [...this.streams]) stream.end();
    this.failPending("the connection closed before the answer arrived");
    this.safeEmit("close");
  }

  private failPending(message: string): void {
    const groups = new Set(this.pending.values());
    this.pending.clear();
    for (const group of groups) group.reject(new ConnectionClosed(message));
  }
}

/** `promise`'s value, or undefined when `ms` pass first. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    void promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}
