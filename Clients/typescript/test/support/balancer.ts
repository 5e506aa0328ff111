/** Test support: the deployment's HAProxy (docs/deploy/haproxy.cfg, as it is) terminating TLS in front of one gateway. */

import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { CLIENT_DIR, tempDir } from "./server.js";

const HAPROXY_CFG = path.resolve(CLIENT_DIR, "..", "..", "docs", "deploy", "haproxy.cfg");

/** A self-signed certificate for 127.0.0.1 and localhost made with openssl; its PEM and its key's path. */
export function makeCertificate(dir: string, name: string): { pem: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key, "-out", cert], { stdio: ["ignore", "ignore", "pipe"] });
  return { pem: fs.readFileSync(cert, "utf8"), key };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection({ path: socketPath });
    socket.once("error", () => resolve(false));
    socket.once("data", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("connect", () => socket.write("show info\n"));
  });
}

/** HAProxy running the deployment's file; `stop()` kills it. */
export interface Balancer {
  readonly tlsPort: number;
  /** The PEM of the certificate it serves (self-signed). */
  readonly certificate: string;
  stop(): Promise<void>;
}

/** Starts HAProxy with its TLS address on a free port and the three gateway lines all at `gateway`. */
export async function startBalancer(gateway: string): Promise<Balancer> {
  const dir = tempDir("payrpc-haproxy-");
  const { pem: certificate, key } = makeCertificate(dir, "gateway");
  const pemFile = path.join(dir, "haproxy.pem");
  fs.writeFileSync(pemFile, certificate + fs.readFileSync(key, "utf8"));
  const adminSocket = path.join(dir, "admin.sock");
  const adminCfg = path.join(dir, "admin.cfg");
  fs.writeFileSync(adminCfg, `global\n    stats socket ${adminSocket} level admin\n`);
  const tlsPort = await freePort();
  const env = {
    PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
    PAYRPC_LISTEN: `127.0.0.1:${await freePort()}`,
    PAYRPC_TLS_LISTEN: `127.0.0.1:${tlsPort}`,
    PAYRPC_TLS_PEM: pemFile,
    PAYRPC_GATEWAY_1: gateway,
    PAYRPC_GATEWAY_2: gateway,
    PAYRPC_GATEWAY_3: gateway,
  };
  const haproxy: ChildProcess = spawn("haproxy", ["-db", "-f", HAPROXY_CFG, "-f", adminCfg], { env, stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  haproxy.stderr?.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  const exited = new Promise<void>((resolve) => haproxy.once("exit", () => resolve()));
  process.once("exit", () => haproxy.kill("SIGKILL"));
  // A test process killed outright runs no exit handler: this kills HAProxy when it is gone.
  const watchdog = spawn("setsid", ["sh", "-c", `tail --pid=${process.pid} -f /dev/null; kill -9 ${haproxy.pid} 2>/dev/null`], { stdio: "ignore" });
  watchdog.unref();
  const stop = async (): Promise<void> => {
    if (haproxy.exitCode === null && haproxy.signalCode === null) haproxy.kill("SIGKILL");
    await exited;
    watchdog.kill("SIGKILL");
  };
  // HAProxy says nothing when it is ready: its admin socket answering is the sign.
  const deadline = Date.now() + 60_000;
  while (!(await answers(adminSocket))) {
    if (haproxy.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`haproxy did not start (exit ${haproxy.exitCode}): ${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { tlsPort, certificate, stop };
}
