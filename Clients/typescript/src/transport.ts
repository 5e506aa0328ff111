/** The byte pipes a client talks over: a child process's stdin/stdout, or a TCP or Unix socket. */

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import net from "node:net";
import tls from "node:tls";
import type { Readable } from "node:stream";

/** What a client reads lines from and writes lines to. */
export interface Transport {
  /** Writes one or more whole lines; returns false when the pipe is already closed. */
  write(data: string): boolean;
  /** Starts reading: `onLine` for each line, `onEnd` once, when the server's output ends. */
  start(onLine: (line: string) => void, onEnd: (reason?: Error) => void): void;
  /** Ends the client's side: the server sees the end of its input. */
  end(): void;
  /** Closes everything now. */
  destroy(): void;
}

/** Calls `onLine` for every newline-terminated line of `stream` (a last unterminated one too), then `onEnd`. */
export function readLines(stream: Readable, onLine: (line: string) => void, onEnd: (reason?: Error) => void): void {
  let buffer = "";
  let ended = false;
  const finish = (reason?: Error): void => {
    if (ended) return;
    ended = true;
    if (buffer) onLine(buffer);
    buffer = "";
    onEnd(reason);
  };
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      onLine(line);
      newline = buffer.indexOf("\n");
    }
  });
  stream.on("end", () => finish());
  stream.on("close", () => finish());
  stream.on("error", (error: Error) => finish(error));
}

/** How a spawned server ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A child `payrpc serve --stdio`: requests on its stdin, answers on its stdout, its log on stderr. */
export class ProcessTransport implements Transport {
  /** Resolves when the child has exited. */
  readonly exited: Promise<Exit>;
  private open = true;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    child.stdin.on("error", () => {
      this.open = false; // EPIPE: the server is gone; the read side reports the end
    });
  }

  /** Starts `command args...`; rejects when it cannot be started (no such file, not executable). */
  static start(command: string, args: readonly string[], env: NodeJS.ProcessEnv | undefined, cwd: string | undefined): Promise<ProcessTransport> {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env, cwd });
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("spawn", () => {
        child.off("error", reject);
        child.on("error", () => undefined); // later errors (a failed kill) surface as the exit
        resolve(new ProcessTransport(child));
      });
    });
  }

  write(data: string): boolean {
    if (!this.open || this.child.stdin.destroyed || this.child.stdin.writableEnded) return false;
    this.child.stdin.write(data);
    return true;
  }

  start(onLine: (line: string) => void, onEnd: (reason?: Error) => void): void {
    readLines(this.child.stdout, onLine, onEnd);
  }

  /** Calls `onLine` for each line the server logs on stderr. */
  forwardLog(onLine: (line: string) => void): void {
    readLines(this.child.stderr, onLine, () => undefined);
  }

  end(): void {
    this.open = false;
    if (!this.child.stdin.destroyed) this.child.stdin.end();
  }

  destroy(): void {
    this.end();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}

/** Where to connect: `{tcp: "host:port"}`, `{tcp: {host, port}}` or `{unix: "/path/to/socket"}`. */
export type Address = { tcp: string | { host: string; port: number } } | { unix: string };

/**
 * TLS over a `tcp` address, as to the gateways behind HAProxy's TLS address: `ca` is the PEM of the
 * certificates to trust (in place of Node's default authorities); the certificate must name
 * `servername` (by default the host connected to).
 */
export interface TlsOptions {
  ca: string | Buffer | Array<string | Buffer>;
  servername?: string;
}

/** A TCP (optionally TLS) or Unix socket connection to `payrpc serve --tcp/--unix`. */
export class SocketTransport implements Transport {
  private constructor(readonly socket: net.Socket) {}

  /** Connects; rejects on failure or when `timeoutMs` passes first. */
  static connect(address: Address, timeoutMs: number, secure?: TlsOptions): Promise<SocketTransport> {
    if (secure !== undefined && "unix" in address) throw new TypeError("tls is for a tcp address, not a unix socket");
    const socket =
      "unix" in address
        ? net.createConnection({ path: address.unix })
        : secure !== undefined
          ? tls.connect({ ...tcpTarget(address.tcp), ca: secure.ca, ...(secure.servername === undefined ? {} : { servername: secure.servername }) })
          : net.createConnection(tcpTarget(address.tcp));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`could not connect within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once("error", (error: Error) => {
        clearTimeout(timer);
        reject(error);
      });
      // A TLS socket is ready once its handshake (and the certificate check) is done.
      socket.once(secure !== undefined ? "secureConnect" : "connect", () => {
        clearTimeout(timer);
        socket.removeAllListeners("error");
        if (!("unix" in address)) socket.setNoDelay(true);
        resolve(new SocketTransport(socket));
      });
    });
  }

  write(data: string): boolean {
    if (this.socket.destroyed || this.socket.writableEnded) return false;
    this.socket.write(data);
    return true;
  }

  start(onLine: (line: string) => void, onEnd: (reason?: Error) => void): void {
    readLines(this.socket, onLine, onEnd);
  }

  end(): void {
    if (!this.socket.destroyed) this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }
}

function tcpTarget(tcp: string | { host: string; port: number }): { host: string; port: number } {
  if (typeof tcp !== "string") return tcp;
  const match = /^\[?([^\]]*)\]?:(\d+)$/.exec(tcp);
  if (!match) throw new TypeError(`tcp must be "host:port" (or "[ipv6]:port"), not ${JSON.stringify(tcp)}`);
  return { host: match[1] ?? "", port: Number(match[2]) };
}
