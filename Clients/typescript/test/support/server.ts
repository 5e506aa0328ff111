/** Test support: the real payrpc binary, a fresh data directory per server, socket servers started for a test. */

import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The client's folder (tests run from dist/test/). */
export const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The payrpc binary under test (`$PAYRPC_BIN`, which run-tests.sh checks). */
export function payrpcBin(): string {
  const binary = process.env["PAYRPC_BIN"];
  assert.ok(binary, "set PAYRPC_BIN to the payrpc binary");
  return binary;
}

/** A new empty temporary directory, removed when the test process exits. */
export function tempDir(prefix = "payrpc-ts-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The options every live server gets: its own data directory; it checks its own answers too. */
export function serverArgs(): string[] {
  return ["--data", tempDir("payrpc-data-"), "--validate-results"];
}

/** A `payrpc serve` listening on TCP and a Unix socket, started for one test. */
export interface SocketServer {
  readonly host: string;
  readonly port: number;
  readonly unixPath: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `payrpc serve --tcp 127.0.0.1:0 --unix <tmp>/payrpc.sock [extra...]` and reads its addresses from its log. */
export async function startSocketServer(extra: string[] = []): Promise<SocketServer> {
  const unixPath = path.join(tempDir("payrpc-sock-"), "payrpc.sock");
  const child = spawn(payrpcBin(), ["serve", "--tcp", "127.0.0.1:0", "--unix", unixPath, ...serverArgs(), ...extra], { stdio: ["ignore", "ignore", "pipe"] }) as unknown as ChildProcessWithoutNullStreams;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`no 'listening' line in 30 s: ${lines.join("\n")}`)), 30_000);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split("\n");
      buffer = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        const match = /listening address=127\.0\.0\.1:(\d+) transport=tcp/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      }
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening: ${lines.join("\n")}`)));
  });
  await waitFor(() => fs.existsSync(unixPath));
  let stopped: Promise<number | null> | undefined;
  const stop = (): Promise<number | null> => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    })();
    return stopped;
  };
  process.once("exit", () => child.kill("SIGKILL"));
  return { host: "127.0.0.1", port, unixPath, child, stop };
}

/** Waits until `condition()` holds (polling), failing after `ms`. */
export async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether a process no longer exists (exited and reaped). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === "ESRCH";
  }
}

/** A throw-away PostgreSQL server (`scripts/test-postgres`): a temporary directory, a free loopback port, no system service. */
export interface PostgresCluster {
  /** Its `postgresql://` URL. */
  readonly url: string;
  /** Stops the server at once (`pg_ctl -m immediate`). */
  stop(): Promise<void>;
  /** Starts the stopped server again on its port. */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  remove(): Promise<void>;
}

/** Starts a throw-away PostgreSQL cluster; it is removed when the test process exits, if not before. */
export async function startPostgres(): Promise<PostgresCluster> {
  const script = path.join(CLIENT_DIR, "..", "..", "scripts", "test-postgres");
  const run = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile(script, args, { timeout: 300_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`scripts/test-postgres ${args.join(" ")} failed: ${error.message} ${stderr}`));
        else resolve(stdout);
      });
    });
  const [directory, url] = (await run(["start"])).trim().split("\n");
  assert.ok(directory && url, "scripts/test-postgres start printed no directory and URL");
  return {
    url,
    stop: async () => void (await run(["stop", directory])),
    restart: async () => void (await run(["restart", directory])),
    remove: async () => void (await run(["remove", directory])),
  };
}
