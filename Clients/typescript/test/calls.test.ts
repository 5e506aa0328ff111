// `client.calls`: the call journal's helpers, their wire form, and their assertions against the
// real binary: verify, count, sequences, waits woken by another connection's call, waits that run
// out of time, clear.

import assert, { AssertionError } from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CallVerificationError,
  CallsNotSeenError,
  Client,
  InvalidParams,
  RpcError,
  ValidationError,
  absent,
  callMatch,
  describeCallFailure,
  equals,
  pattern,
  present,
  tatra,
} from "../src/index.js";
import { serverArgs, startSocketServer } from "./support/server.js";

const JANA: tatra.Contact = { fullName: "Jana Nováková", phones: ["+421900123456"] };

/** A fresh server with two health checks and a payment over the limit (answered with AmountLimit) in its journal. */
async function journalled(): Promise<Client> {
  const client = await Client.spawn({ args: serverArgs() });
  await client.rpc.health();
  await client.rpc.health();
  await assert.rejects(client.tatra.executePayment({ amount: "5000.01", contact: JANA, reference: "Lunch" }), tatra.AmountLimitError);
  return client;
}

let client: Client;

before(async () => {
  client = await journalled();
});

after(async () => {
  assert.equal(await client.close(), 0);
});

test("a query becomes the wire match", () => {
  const match = callMatch({
    method: "tatra.executePayment",
    kind: "call",
    url: /\/payments\//,
    failed: false,
    params: { "/amount": "12.50", "/pin": present, "/note": absent, "/reference": pattern(/^Lun/), "/tip": equals(null) },
    entry: [{ pointer: "/error/code", equals: -33003 }],
  });
  assert.deepEqual(match, {
    method: "tatra.executePayment",
    kind: "call",
    url: "\\/payments\\/",
    failed: false,
    params: [
      { pointer: "/amount", equals: "12.50" },
      { pointer: "/pin", present: true },
      { pointer: "/note", absent: true },
      { pointer: "/reference", pattern: "^Lun" },
      { pointer: "/tip", equals: null },
    ],
    entry: [{ pointer: "/error/code", equals: -33003 }],
  });
  assert.deepEqual(callMatch(), {});
});

test("a failure's message lists every nearest miss with each pointer, expected and found", () => {
  const text = describeCallFailure("Call verification failed: expected exactly 1 ..., found 0", {
    expected: "exactly 1",
    matched: 0,
    nearestMisses: [
      {
        entry: "1.3",
        method: "tatra.executePayment",
        differences: [
          { pointer: "/params/amount", expected: 'equals "12.50"', actual: "5000.01" },
          { pointer: "/params/reference", expected: "present" },
          { pointer: "/params/tip", expected: "absent", actual: null },
        ],
      },
    ],
  });
  assert.equal(
    text,
    [
      "Call verification failed: expected exactly 1 ..., found 0",
      "nearest misses:",
      "  1.3 (tatra.executePayment)",
      '    /params/amount: expected equals "12.50", found "5000.01"',
      "    /params/reference: expected present, found nothing",
      "    /params/tip: expected absent, found null",
    ].join("\n"),
  );
  assert.equal(describeCallFailure("Call verification failed", "not an object"), "Call verification failed");
});

test("verify and count hold; a failed verify is an AssertionError naming the pointer", async () => {
  const held = await client.calls.verify({ method: "rpc.health", times: 2 });
  assert.equal(held.matched, 2);
  assert.equal(held.entries.length, 2);
  await client.calls.verify({ method: "tatra.executePayment", failed: true, params: { "/amount": "5000.01", "/reference": pattern("^Lun") } });
  await client.calls.verify({ method: "tatra.executePayment", entry: { "/error/code": tatra.AmountLimitError.code } });
  await client.calls.verify({ method: "rpc.health", atLeast: 1, atMost: 2 });
  assert.equal(await client.calls.count({ method: "rpc.health" }), 2);
  assert.equal(await client.calls.count(), 3);
  assert.deepEqual((await client.calls.find({ kind: "call", limit: 2 })).map((e) => e.method), ["rpc.health", "rpc.health"]);

  const error = await client.calls.verify({ method: "tatra.executePayment", params: { "/amount": "12.50", "/pin": present } }).catch((e: unknown) => e);
  assert.ok(error instanceof CallVerificationError);
  assert.ok(error instanceof AssertionError);
  assert.equal(error.name, "CallVerificationError");
  assert.match(error.message, /^Call verification failed/);
  assert.ok(error.message.includes('/params/amount: expected equals "12.50", found "5000.01"'), error.message);
  assert.ok(error.message.includes("/params/pin: expected present, found nothing"), error.message);
  assert.equal(error.nearestMisses[0]?.method, "tatra.executePayment");
  assert.deepEqual(error.nearestMisses[0]?.differences.map((d) => d.pointer), ["/params/amount", "/params/pin"]);
  assert.equal(error.failure?.matched, 0);
  assert.equal(error.failure?.expected, "exactly 1");
  assert.ok(error.cause instanceof RpcError && error.cause.code === CallVerificationError.code);
  await assert.rejects(client.calls.verify({ method: "rpc.health" }), (e: unknown) => e instanceof CallVerificationError && /exactly 1/.test(e.message));
});

test("a sequence holds in order and fails out of order", async () => {
  assert.equal((await client.calls.verify({ sequence: [{ method: "rpc.health" }, { method: "tatra.executePayment", failed: true }] })).matched, 2);
  const error = await client.calls.verify({ sequence: [{ method: "tatra.executePayment" }, { method: "rpc.health" }] }).catch((e: unknown) => e);
  assert.ok(error instanceof CallVerificationError);
  assert.equal(error.failure?.step, 1);
  assert.equal(error.failure?.matched, 1);
  assert.ok(error.message.includes("step 2 of 2 of the sequence (rpc.health)"), error.message);
});

test("a wait is answered by a call another connection makes", async () => {
  const server = await startSocketServer();
  const waiter = await Client.connect({ tcp: `${server.host}:${server.port}` });
  const caller = await Client.connect({ tcp: `${server.host}:${server.port}` });
  try {
    await waiter.rpc.health();
    const page = await waiter.calls.list();
    const mine = page.entries.at(-1)?.connection;
    assert.ok(page.next !== undefined && mine !== undefined);
    // Only what is journalled after the cursor counts: the waiter's own health check does
    // not, so the caller's call answers the wait however the two race.
    const waiting = waiter.calls.wait({ method: "rpc.health", after: page.next, timeoutMs: 60_000 });
    await caller.rpc.health();
    const entries = await waiting;
    assert.deepEqual(entries.map((e) => e.method), ["rpc.health"]);
    assert.notEqual(entries[0]?.connection, mine);
  } finally {
    await waiter.close();
    await caller.close();
    assert.equal(await server.stop(), 0);
  }
});

test("a wait that times out rejects with CallsNotSeenError", async () => {
  const error = await client.calls.wait({ method: "tatra.authorize", timeoutMs: 50 }).catch((e: unknown) => e);
  assert.ok(error instanceof CallsNotSeenError);
  assert.ok(error instanceof AssertionError);
  assert.match(error.message, /^Calls not seen in time/);
  assert.ok(error.message.includes('/method: expected tatra.authorize, found "tatra.executePayment"'), error.message);
  assert.equal(error.failure?.matched, 0);
  // Entries already there answer at once.
  assert.equal((await client.calls.wait({ method: "rpc.health", count: 2, timeoutMs: 50 })).length, 2);
});

test("other errors stay the client's usual ones", async () => {
  await assert.rejects(client.calls.verify({ method: "rpc.health", params: { "no-slash": 1 } }), ValidationError); // not a JSON Pointer
  await assert.rejects(client.calls.verify({ method: "rpc.health", times: 1, atLeast: 1 }), InvalidParams); // the server's rule: one count
  await assert.rejects(client.calls.verify({ sequence: [{ method: "rpc.health" }], method: "rpc.health" } as never), TypeError);
});

test("clear empties the journal", async () => {
  const fresh = await journalled();
  try {
    assert.equal(await fresh.calls.clear(), 3);
    assert.equal(await fresh.calls.count(), 0);
    await assert.rejects(fresh.calls.verify({ method: "rpc.health", atLeast: 1 }), CallVerificationError);
    await fresh.calls.verify({ method: "rpc.health", times: 0 });
  } finally {
    assert.equal(await fresh.close(), 0);
  }
});
