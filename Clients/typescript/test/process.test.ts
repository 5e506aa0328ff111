// The spawned server's life: close() waits for its exit; its death rejects every pending call.

import assert from "node:assert/strict";
import { once } from "node:events";
import path from "node:path";
import { test } from "node:test";
import { Client, ConnectionClosed, PayRpcError } from "../src/index.js";
import { processGone, serverArgs, tempDir } from "./support/server.js";

test("close() ends stdin and waits for the server to exit", async () => {
  const client = await Client.spawn({ args: serverArgs() });
  const logged: string[] = [];
  client.on("stderr", (line: string) => logged.push(line));
  const pid = client.pid!;
  assert.deepEqual(await client.call("rpc.health"), { status: "SERVING" });
  assert.equal(await client.close(), 0);
  assert.equal(client.exitCode, 0);
  assert.ok(client.closed);
  assert.ok(processGone(pid), "exited and reaped");
  assert.ok(logged.some((line) => line.includes("stopped")), logged.join("\n"));
  await assert.rejects(client.call("rpc.health"), ConnectionClosed);
  assert.throws(() => client.notify("tatra.onFlowStart", {}), ConnectionClosed);
});

test("a server that dies mid-call rejects every pending promise", async () => {
  const client = await Client.spawn({ args: serverArgs() });
  const closed = once(client, "close");
  const calls: Array<Promise<unknown>> = Array.from({ length: 20 }, () => client.sandbox.delay(60_000));
  calls.push(client.call("rpc.discover"));
  const stream = client.notifications();
  process.kill(client.pid!, "SIGKILL");
  const outcomes = await Promise.allSettled(calls);
  for (const outcome of outcomes) {
    assert.ok(outcome.status === "rejected" && outcome.reason instanceof ConnectionClosed, JSON.stringify(outcome));
  }
  await closed;
  assert.deepEqual(await stream.next(), { done: true, value: undefined });
  await assert.rejects(client.rpc.health(), ConnectionClosed);
  assert.equal(await client.close(), null, "killed by a signal: no exit code");
});

test("a binary that cannot be started is a clear error", async () => {
  const missing = path.join(tempDir(), "no-such-payrpc");
  await assert.rejects(Client.spawn({ binary: missing }), (error: unknown) => error instanceof PayRpcError && error.message.includes(missing));
});
