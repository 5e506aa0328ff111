// Notifications as events and as an async iterator, from the real server.

import assert from "node:assert/strict";
import { once } from "node:events";
import { after, before, test } from "node:test";
import { Client, Timeout, type Notification, type pbba } from "../src/index.js";
import { serverArgs } from "./support/server.js";

let client: Client;

before(async () => {
  client = await Client.spawn({ args: serverArgs() });
});

after(async () => {
  assert.equal(await client.close(), 0);
});

async function showPopup(expiryInterval: number): Promise<pbba.PaymentRequest> {
  const request = await client.pbba.submitPaymentRequest({ amount: "10.00", currency: "GBP", reference: "Order 7" });
  await client.pbba.showPBBAPopup({ secureToken: request.secureToken, brn: request.brn, expiryInterval });
  return request;
}

test("a payment's status change arrives as typed events", async () => {
  const typed: pbba.PaymentStatusChangedNotification[] = [];
  const remove = client.onNotification("pbba.paymentStatusChanged", (params) => typed.push(params));
  const every = once(client, "notification") as Promise<[Notification]>;
  const request = await showPopup(300);
  await client.sandbox.pbbaApprovePayment({ secureToken: request.secureToken });
  const [notification] = await every;
  assert.equal(notification.method, "pbba.paymentStatusChanged");
  remove();
  assert.equal(typed.length, 1);
  assert.equal(typed[0]?.status, "completed");
  assert.equal(typed[0]?.requestId, request.requestId);
});

test("a pop-up's expiry arrives on the async iterator", async () => {
  const stream = client.notifications("pbba.popupDidExpire", { timeoutMs: 30_000 });
  const request = await showPopup(1);
  for await (const notification of stream) {
    assert.equal(notification.method, "pbba.popupDidExpire");
    assert.equal(notification.params.requestId, request.requestId);
    assert.equal(typeof notification.params.suggestedPopup, "object");
    break;
  }
  // `break` ended the stream: it takes no more.
  assert.deepEqual(await stream.next(), { done: true, value: undefined });
});

test("waiting on a stream times out, and an aborted stream ends", async () => {
  const quiet = client.notifications("journal.syncFailed", { timeoutMs: 50 });
  await assert.rejects(quiet.next(), Timeout);
  const controller = new AbortController();
  const stream = client.notifications(undefined, { signal: controller.signal });
  setTimeout(() => controller.abort(), 20);
  const seen: unknown[] = [];
  for await (const n of stream) seen.push(n);
  assert.deepEqual(seen, []);
});
