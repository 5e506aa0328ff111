// Incoming results and notifications are validated (on by default, switchable off). The real
// server never sends a bad result, so a tiny fake server on a Unix socket does.

import assert from "node:assert/strict";
import net from "node:net";
import path from "node:path";
import { test } from "node:test";
import { Client, ValidationError, type Notification } from "../src/index.js";
import { tempDir } from "./support/server.js";

/** A fake server: answers every request with `result`, after sending `notification` first. */
async function fakeServer(result: unknown, notification: unknown): Promise<{ path: string; close(): void }> {
  const socketPath = path.join(tempDir(), "fake.sock");
  const server = net.createServer((socket) => {
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines.filter(Boolean)) {
        const request = JSON.parse(line) as { id?: number };
        if (request.id === undefined) continue;
        socket.write(JSON.stringify(notification) + "\n");
        socket.write(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }) + "\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { path: socketPath, close: () => server.close() };
}

const BAD_BALANCE = { balance: 12.5, dueDate: "2100-01-01T00:00:00Z" }; // money as a number: not what the schema says
const BAD_STATUS = { jsonrpc: "2.0", method: "pbba.paymentStatusChanged", params: { requestId: "r1", brn: "ABC123", status: "maybe" } };

test("a result or notification that breaks its schema is a ValidationError; validate: false lets it through", async () => {
  const fake = await fakeServer(BAD_BALANCE, BAD_STATUS);
  try {
    const checked = await Client.connect({ unix: fake.path });
    const invalid: ValidationError[] = [];
    const valid: Notification[] = [];
    checked.on("invalidNotification", (error: ValidationError) => invalid.push(error));
    checked.on("notification", (n: Notification) => valid.push(n));
    const stream = checked.notifications("pbba.paymentStatusChanged");
    const error = await checked.tatra.fetchBalance().catch((e: unknown) => e);
    assert.ok(error instanceof ValidationError);
    assert.equal(error.what, "result of tatra.fetchBalance");
    assert.equal(error.pointer, "/balance");
    assert.equal(invalid.length, 1);
    assert.equal(invalid[0]?.pointer, "/status");
    assert.deepEqual(valid, []);
    await assert.rejects(stream.next(), ValidationError);
    await checked.close();

    const unchecked = await Client.connect({ unix: fake.path, validate: false });
    const seen: Notification[] = [];
    unchecked.on("notification", (n: Notification) => seen.push(n));
    assert.deepEqual(await unchecked.tatra.fetchBalance(), BAD_BALANCE);
    assert.equal(seen[0]?.method, "pbba.paymentStatusChanged");
    await unchecked.close();
  } finally {
    fake.close();
  }
});
