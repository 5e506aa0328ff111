// Every service method's happy path through the generated proxies, against the real binary over stdio.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client, DOCUMENT, PROTOCOL_VERSION, dotpay, northstar, pbba, tatra } from "../src/index.js";
import { STEPS, runScenario, serviceMethods } from "./support/scenario.js";
import { serverArgs } from "./support/server.js";

let client: Client;

before(async () => {
  client = await Client.spawn({ args: serverArgs() });
});

after(async () => {
  assert.equal(await client.close(), 0);
});

test("the scenario covers every service method of the document", () => {
  const covered = new Set(STEPS.map(([method]) => method));
  assert.deepEqual(serviceMethods().filter((m) => !covered.has(m)), []);
});

test("the built-in methods answer", async () => {
  assert.deepEqual(await client.rpc.health(), { status: "SERVING" });
  const hello = await client.hello({ profile: "builtins" });
  assert.equal(hello.server, "payrpc");
  assert.equal(hello.protocolVersion, PROTOCOL_VERSION);
  assert.equal(hello.profile, "builtins");
  assert.equal(hello.methods, (DOCUMENT as { methods: unknown[] }).methods.length);
  assert.deepEqual(await client.rpc.discover(), DOCUMENT);
  client.notify("$/cancelRequest", { id: 999_999 }); // nothing to cancel: ignored
  assert.equal((await client.call<{ status: string }>("rpc.health")).status, "SERVING");
});

test("every service method answers through its proxy over stdio", async () => {
  const outcomes = await runScenario(client);
  assert.deepEqual([...outcomes.keys()].sort(), serviceMethods().sort());
  // The steps (the Python client's) take a documented domain error as an answer too; these
  // are the ones a fresh sandbox gives, each as its generated class.
  const failed = [...outcomes].filter(([, value]) => value instanceof Error).map(([method, error]) => [method, (error as Error).constructor]);
  assert.deepEqual(failed, [
    ["tatra.authorizePayment", tatra.BankTemporarilyOutOfServiceError], // the magic amount 90.05
    ["tatra.getIban", tatra.NetworkError], // armed by sandbox.failNext
    ["sandbox.pbba.tapTryAgain", pbba.PopupNotFoundError], // the pop-up was closed the step before
    ["sandbox.pbba.declinePayment", pbba.PaymentAlreadyFinishedError], // approved the step before
    ["sandbox.northstar.completePayerAction", northstar.UnprocessableEntityError], // no payer action pending
    ["dotpay.fastPayment", dotpay.ChannelNotFoundError], // channel 212 is not in the test system
    ["dotpay.masterpass.didCreateAuthorization", dotpay.NoAuthorizationPendingError], // no Masterpass question asked
    ["dotpay.masterpass.didAuthorizeUser", dotpay.NoAuthorizationPendingError], // no Masterpass question asked
  ]);
  const setup = outcomes.get("tatra.fetchSetupData") as tatra.SetupData;
  assert.equal(typeof setup.maxTransactionAmount, "string", "money is a decimal string");
  assert.match(setup.maxTransactionAmount, /^\d+\.\d{2}$/);
});

test("typed results carry money as strings", async () => {
  await client.sandbox.tatraResetProfile();
  await client.tatra.authorize("1234");
  const balance = await client.tatra.fetchBalance();
  assert.equal(typeof balance.balance, "string");
  assert.ok(!Number.isNaN(Date.parse(balance.dueDate)));
});
