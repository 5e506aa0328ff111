// Many calls in flight on one connection.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "../src/index.js";
import { serverArgs, startSocketServer } from "./support/server.js";

test("500 concurrent calls over stdio all answer, each to its own call", async () => {
  const client = await Client.spawn({ args: [...serverArgs(), "--max-in-flight", "1000"] });
  try {
    const answers = await Promise.all(Array.from({ length: 500 }, (_, n) => client.sandbox.delay(n % 50, { timeoutMs: 60_000 })));
    assert.deepEqual(answers, Array.from({ length: 500 }, (_, n) => n % 50));
  } finally {
    assert.equal(await client.close(), 0);
  }
});

test("500 concurrent calls over TCP", async () => {
  const server = await startSocketServer();
  try {
    const client = await Client.connect({ tcp: { host: server.host, port: server.port } });
    const answers = await Promise.all(Array.from({ length: 500 }, () => client.rpc.health()));
    assert.equal(answers.length, 500);
    assert.ok(answers.every((a) => a.status === "SERVING"));
    await client.close();
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
