// The client against the real binary on a shared PostgreSQL store that goes away and comes back:
// -32009 rejects with StoreUnavailable, and a retry with the same idempotency key goes through
// once the database is back.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Client, RpcError, StoreUnavailable, errorClass } from "../src/index.js";
import { startPostgres } from "./support/server.js";

/** A store key, as `openssl rand -hex 32` makes one. */
const STORE_KEY = "5a17c0de".repeat(8);

test("a stopped database rejects with StoreUnavailable and a retry goes through after", async () => {
  const cluster = await startPostgres();
  try {
    const client = await Client.spawn({ args: ["--store", cluster.url], env: { ...process.env, PAYRPC_STORE_KEY: STORE_KEY } });
    // The first call connects and prepares: it may take a while on a loaded machine.
    const before = await client.pbba.submitPaymentRequest({ amount: "7.00", currency: "GBP", reference: "before" }, { timeoutMs: 60_000 });
    await cluster.stop();
    const whileDown = { amount: "8.00", currency: "GBP", reference: "while down" };
    const down = await client.pbba.submitPaymentRequest(whileDown, { idempotencyKey: "retry-1" }).then(
      () => assert.fail("a write succeeded while the database was stopped"),
      (error: unknown) => error,
    );
    assert.ok(down instanceof StoreUnavailable && down instanceof RpcError, `not StoreUnavailable: ${String(down)}`);
    assert.equal(down.code, -32009);
    assert.equal(down.retryable, true);
    assert.equal(errorClass(-32009), StoreUnavailable);
    // The server kept serving what needs no store.
    assert.deepEqual(await client.call("rpc.health"), { status: "SERVING" });
    await cluster.restart();
    const retried = await client.pbba.submitPaymentRequest(whileDown, { idempotencyKey: "retry-1", timeoutMs: 60_000 });
    // The retry ran once: the same key answers the same payment request again.
    assert.deepEqual(await client.pbba.submitPaymentRequest(whileDown, { idempotencyKey: "retry-1" }), retried);
    // What was written before the database went away is still there.
    assert.equal((await client.pbba.getPaymentStatus(before.secureToken)).status, "inProgress");
    assert.equal(await client.close(), 0);
  } finally {
    await cluster.remove();
  }
});
