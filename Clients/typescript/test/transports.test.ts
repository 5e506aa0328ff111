// TCP and Unix sockets: the scenario over TCP, tokens over both.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Client, Unauthenticated } from "../src/index.js";
import { runScenario, serviceMethods } from "./support/scenario.js";
import { startSocketServer, tempDir } from "./support/server.js";

test("every service method answers over TCP, and the built-ins over a Unix socket", async () => {
  const server = await startSocketServer();
  try {
    const tcp = await Client.connect({ tcp: { host: server.host, port: server.port } });
    const outcomes = await runScenario(tcp);
    assert.deepEqual([...outcomes.keys()].sort(), serviceMethods().sort());
    assert.equal(await tcp.close(), null);
    const unix = await Client.connect({ unix: server.unixPath });
    assert.deepEqual(await unix.rpc.health(), { status: "SERVING" });
    await unix.close();
    assert.ok(unix.closed);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test("a token is sent in rpc.hello first, over TCP and Unix", async () => {
  const tokenFile = path.join(tempDir(), "token");
  fs.writeFileSync(tokenFile, "s3cret-token\n");
  const server = await startSocketServer(["--auth-token-file", tokenFile]);
  try {
    const tcp = await Client.connect({ tcp: `${server.host}:${server.port}`, token: "s3cret-token" });
    assert.deepEqual(await tcp.call("rpc.health"), { status: "SERVING" });
    await tcp.close();
    const anonymous = await Client.connect({ tcp: { host: server.host, port: server.port } });
    assert.deepEqual(await anonymous.call("rpc.health"), { status: "SERVING" }, "a balancer's health check needs no token");
    await assert.rejects(anonymous.call("rpc.discover"), Unauthenticated);
    await anonymous.close();
    await assert.rejects(Client.connect({ unix: server.unixPath, token: "wrong" }), Unauthenticated);
    const unix = await Client.connect({ unix: server.unixPath, token: "s3cret-token", profile: "unix" });
    assert.equal((await unix.rpc.health()).status, "SERVING");
    assert.equal((await unix.hello()).profile, "unix", "the token given at connect is sent again");
    await unix.close();
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
