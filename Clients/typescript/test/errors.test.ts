// Domain errors as their generated classes with typed data, gateway errors, local validation.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  Client,
  DomainError,
  IdempotencyConflict,
  InvalidParams,
  MethodNotFound,
  RpcError,
  ValidationError,
  errorClass,
  pbba,
  tatra,
} from "../src/index.js";
import { serverArgs } from "./support/server.js";

let client: Client;

before(async () => {
  client = await Client.spawn({ args: serverArgs() });
});

after(async () => {
  assert.equal(await client.close(), 0);
});

test("wrong PINs reject with WrongPinError and its typed data until the application is blocked", async () => {
  await client.hello({ profile: "wrong-pins" });
  const blocked: boolean[] = [];
  for (let i = 0; i < 3; i++) {
    const error = await client.tatra.authorize("0000").then(
      () => assert.fail("a wrong PIN was accepted"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof tatra.WrongPinError);
    assert.ok(error instanceof tatra.TatraError && error instanceof DomainError && error instanceof RpcError);
    assert.equal(error.code, tatra.WrongPinError.code);
    assert.equal(error.message, "Wrong PIN");
    assert.equal(error.data.type, "wrongPin");
    blocked.push(error.data.applicationBlocked);
  }
  assert.deepEqual(blocked, [false, false, true]);
  await assert.rejects(client.tatra.authorize("1234"), tatra.WrongPinError);
  await client.sandbox.tatraResetProfile();
  assert.equal(await client.tatra.authorize("1234"), null);
});

test("an amount over the limit is its own class with the service's status", async () => {
  const contact: tatra.Contact = { fullName: "Jana Nováková", phones: ["+421900123456"] };
  const error = await client.tatra.executePayment({ amount: "5000.01", contact }).catch((e: unknown) => e);
  assert.ok(error instanceof tatra.AmountLimitError);
  assert.equal(error.status, "OUT_OF_RANGE");
  assert.equal(error.data.status, "OUT_OF_RANGE");
  assert.equal(typeof (await client.tatra.executePayment({ amount: "12.50", contact, reference: "Lunch" })), "string");
});

test("every domain code maps to a class of its service, gateway codes to theirs", () => {
  assert.equal(errorClass(-33007), tatra.WrongPinError);
  assert.equal(errorClass(-33100), pbba.PaymentRequestNotFoundError);
  assert.equal(errorClass(-32601), MethodNotFound);
  assert.equal(errorClass(-39999), DomainError);
  assert.equal(errorClass(-1), RpcError);
});

test("gateway errors: unknown method, params the server refuses", async () => {
  await assert.rejects(client.call("nope.nothing"), MethodNotFound);
  const raw = await Client.spawn({ args: serverArgs(), validate: false });
  try {
    const error = await raw.call("rpc.hello", { profile: "no spaces allowed" }).catch((e: unknown) => e);
    assert.ok(error instanceof InvalidParams);
    assert.deepEqual(error.violations.map((v) => v.pointer), ["/profile"]);
    // Money as a number is refused by the server too, once the client lets it through.
    await assert.rejects(raw.call("tatra.executePayment", { amount: 10, contact: { fullName: "J", phones: ["+421900123456"] } }), InvalidParams);
  } finally {
    assert.equal(await raw.close(), 0);
  }
});

test("params are validated before anything is sent", async () => {
  const sent: string[] = [];
  const traced = await Client.spawn({ args: serverArgs(), trace: (direction, line) => direction === "send" && sent.push(line) });
  try {
    const error = await traced.call("rpc.hello", { profile: "no spaces allowed" }).catch((e: unknown) => e);
    assert.ok(error instanceof ValidationError);
    assert.equal(error.pointer, "/profile");
    const money = await traced.call("tatra.executePayment", { amount: 10 }).catch((e: unknown) => e);
    assert.ok(money instanceof ValidationError);
    assert.ok(money.violations.some((v) => v.pointer === "/amount" && v.keyword === "type"));
    assert.deepEqual(sent, []);
  } finally {
    assert.equal(await traced.close(), 0);
  }
});

test("an idempotency key replays the first answer", async () => {
  const params = { amount: "3.00", currency: "GBP", reference: "Once" };
  const first = await client.pbba.submitPaymentRequest(params, { idempotencyKey: "order-1" });
  const again = await client.pbba.submitPaymentRequest(params, { idempotencyKey: "order-1" });
  assert.deepEqual(again, first);
  const other = await client.pbba.submitPaymentRequest(params);
  assert.notEqual(other.secureToken, first.secureToken);
  await assert.rejects(client.pbba.submitPaymentRequest({ ...params, amount: "4.00" }, { idempotencyKey: "order-1" }), IdempotencyConflict);
});

test("a batch answers in order, failures as values", async () => {
  const answers = await client.batch([
    ["rpc.health"],
    { method: "tatra.authorize", params: { pincode: "0000" } },
    { method: "tatra.onFlowStart", params: {}, notify: true },
    ["nope.nothing", {}],
  ]);
  assert.deepEqual(answers[0], { status: "SERVING" });
  assert.ok(answers[1] instanceof tatra.WrongPinError);
  assert.equal(answers[1].data.applicationBlocked, false);
  assert.equal(answers[2], undefined);
  assert.ok(answers[3] instanceof MethodNotFound);
});
