// Timeouts sent as _meta.timeoutMs, local timeouts, AbortSignal cancellation with $/cancelRequest.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Cancelled, CANCEL_METHOD, Client, DeadlineExceeded, RpcError, Timeout } from "../src/index.js";
import { serverArgs, waitFor } from "./support/server.js";

/** A client over stdio that records every line it sends and receives. */
async function traced(args: string[] = []): Promise<{ client: Client; sent: Array<Record<string, any>>; received: Array<Record<string, any>> }> {
  const sent: Array<Record<string, any>> = [];
  const received: Array<Record<string, any>> = [];
  const client = await Client.spawn({
    args: [...serverArgs(), ...args],
    trace: (direction, line) => (direction === "send" ? sent : received).push(JSON.parse(line)),
  });
  return { client, sent, received };
}

test("a timeout is sent as _meta.timeoutMs and the server enforces it", async () => {
  const { client, sent } = await traced();
  try {
    assert.equal(await client.sandbox.delay(5, { timeoutMs: 30_000 }), 5);
    assert.deepEqual(sent.at(-1)?.["params"], { ms: 5, _meta: { timeoutMs: 30_000 } });
    const started = Date.now();
    const late = await client.call("sandbox.delay", { ms: 20_000, _meta: { timeoutMs: 200 } }).catch((e: unknown) => e);
    assert.ok(late instanceof DeadlineExceeded, String(late));
    assert.ok(late instanceof Timeout, "the server's deadline is a Timeout too");
    assert.ok(Date.now() - started < 10_000);
  } finally {
    assert.equal(await client.close(), 0);
  }
});

test("a server that does not answer: the local timeout rejects, cancels, and the connection goes on", async () => {
  const { client, sent } = await traced();
  try {
    process.kill(client.pid!, "SIGSTOP");
    let late: unknown;
    try {
      late = await client.rpc.health({ timeoutMs: 300 }).catch((e: unknown) => e);
    } finally {
      process.kill(client.pid!, "SIGCONT");
    }
    assert.ok(late instanceof Timeout);
    assert.ok(!(late instanceof RpcError), "raised here, not answered by the server");
    const request = sent.find((m) => m["method"] === "rpc.health");
    assert.deepEqual(sent.at(-1), { jsonrpc: "2.0", method: CANCEL_METHOD, params: { id: request?.["id"] } });
    assert.equal((await client.rpc.health()).status, "SERVING");
  } finally {
    assert.equal(await client.close(), 0);
  }
});

test("aborting a call sends $/cancelRequest, the server stops it, the connection goes on", async () => {
  const { client, sent, received } = await traced();
  const controller = new AbortController();
  const call = client.sandbox.delay(60_000, { signal: controller.signal });
  const request = sent.find((m) => m["method"] === "sandbox.delay");
  assert.ok(request, "the request is written at once");
  controller.abort();
  await assert.rejects(call, (error: unknown) => error instanceof Error && error.name === "AbortError");
  assert.deepEqual(sent.at(-1), { jsonrpc: "2.0", method: CANCEL_METHOD, params: { id: request["id"] } });
  // The server answers the cancelled request with Cancelled (the client no longer waits for it).
  await waitFor(() => received.some((m) => m["id"] === request["id"]));
  const answer = received.find((m) => m["id"] === request["id"]);
  assert.equal(answer?.["error"]?.["code"], Cancelled.code);
  assert.equal((await client.rpc.health()).status, "SERVING");
  const started = Date.now();
  assert.equal(await client.close(), 0); // a delay still running would hold the drain for 60 s
  assert.ok(Date.now() - started < 10_000);
});

test("an already aborted signal sends nothing", async () => {
  const { client, sent } = await traced();
  try {
    const reason = new Error("not wanted");
    await assert.rejects(client.rpc.health({ signal: AbortSignal.abort(reason) }), (e) => e === reason);
    assert.deepEqual(sent, []);
  } finally {
    assert.equal(await client.close(), 0);
  }
});
