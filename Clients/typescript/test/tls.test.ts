// TLS: the deployment's HAProxy terminates TLS in front of a real gateway, with a certificate the test makes.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "../src/index.js";
import { makeCertificate, startBalancer } from "./support/balancer.js";
import { startSocketServer, tempDir } from "./support/server.js";

test("a client trusting the certificate calls through TLS; an untrusted certificate or another name is refused", async () => {
  const gateway = await startSocketServer();
  const balancer = await startBalancer(`${gateway.host}:${gateway.port}`);
  try {
    const stranger = makeCertificate(tempDir(), "stranger").pem;
    await assert.rejects(
      Client.connect({ tcp: { host: "127.0.0.1", port: balancer.tlsPort }, tls: { ca: stranger } }),
      (error: NodeJS.ErrnoException) => error.code === "DEPTH_ZERO_SELF_SIGNED_CERT" || /self[- ]signed/i.test(error.message),
    );
    await assert.rejects(
      Client.connect({ tcp: `127.0.0.1:${balancer.tlsPort}`, tls: { ca: balancer.certificate, servername: "payments.example" } }),
      (error: NodeJS.ErrnoException) => error.code === "ERR_TLS_CERT_ALTNAME_INVALID",
    );
    await assert.rejects(Client.connect({ unix: "/nonexistent.sock", tls: { ca: balancer.certificate } }), TypeError);

    const client = await Client.connect({ tcp: `127.0.0.1:${balancer.tlsPort}`, tls: { ca: balancer.certificate }, profile: "over-tls" });
    assert.deepEqual(await client.call("rpc.health"), { status: "SERVING" });
    const hello = (await client.hello({ profile: "over-tls" })) as { profile: string; server: string };
    assert.equal(hello.profile, "over-tls");
    assert.equal(hello.server, "payrpc");
    const clock = (await client.call("sandbox.clock.get", {})) as { time: string };
    assert.ok(typeof clock.time === "string");
    const many = await Promise.all(Array.from({ length: 50 }, () => client.call("rpc.health")));
    assert.deepEqual(many, Array.from({ length: 50 }, () => ({ status: "SERVING" })));
    await client.close();

  } finally {
    await balancer.stop();
    assert.equal(await gateway.stop(), 0);
  }
});
