// Where a spawned server keeps its state: ephemeral by default, kept with dataDir or
// ephemeral: false (against the real binary).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Client, PayRpcError, tatra, type SpawnOptions } from "../src/index.js";
import { stateArguments } from "../src/state.js";
import { exampleEnvironment, leftovers } from "./support/readme.js";
import { tempDir } from "./support/server.js";

/** `applicationBlocked` after each of `count` wrong PINs on a server spawned with `options`. */
async function wrongPins(options: SpawnOptions, count: number): Promise<boolean[]> {
  const client = await Client.spawn(options);
  try {
    const blocked: boolean[] = [];
    for (let i = 0; i < count; i++) {
      const error = await client.tatra.authorize("0000").catch((caught: unknown) => caught);
      assert.ok(error instanceof tatra.WrongPinError, String(error));
      blocked.push(error.data.applicationBlocked);
    }
    return blocked;
  } finally {
    assert.equal(await client.close(), 0);
  }
}

test("the arguments for where the state lives", () => {
  assert.deepEqual(stateArguments([], undefined, undefined), ["--ephemeral"]);
  assert.deepEqual(stateArguments([], undefined, true), ["--ephemeral"]);
  assert.deepEqual(stateArguments(["--ephemeral"], undefined, undefined), []);
  assert.deepEqual(stateArguments([], undefined, false), []);
  assert.deepEqual(stateArguments([], "/d", undefined), ["--data", "/d"]);
  assert.deepEqual(stateArguments([], "d", false), ["--data", "d"]);
  assert.deepEqual(stateArguments(["--data", "d"], undefined, undefined), []);
  assert.deepEqual(stateArguments(["--data=d"], undefined, undefined), []);
  assert.throws(() => stateArguments([], "d", true), PayRpcError);
  assert.throws(() => stateArguments(["--data", "x"], "d", undefined), PayRpcError);
  assert.throws(() => stateArguments(["--data", "x"], undefined, true), PayRpcError);
});

test("spawned servers start clean and leave nothing behind", async () => {
  const root = tempDir();
  const env = exampleEnvironment(root);
  assert.deepEqual(await wrongPins({ env }, 3), [false, false, true]);
  assert.deepEqual(await wrongPins({ env }, 1), [false]);
  assert.deepEqual(leftovers(root), []);
});

test("dataDir keeps the state there", async () => {
  const root = tempDir();
  const env = exampleEnvironment(root);
  const dataDir = path.join(root, "state");
  assert.deepEqual(await wrongPins({ env, dataDir }, 3), [false, false, true]);
  assert.ok(fs.existsSync(path.join(dataDir, "payrpc.sqlite")));
  assert.deepEqual(await wrongPins({ env, dataDir }, 1), [true]);
});

test("ephemeral: false keeps the state in the default data directory", async () => {
  const root = tempDir();
  const env = exampleEnvironment(root);
  assert.deepEqual(await wrongPins({ env, ephemeral: false }, 3), [false, false, true]);
  assert.ok(fs.existsSync(path.join(root, "data", "payrpc", "payrpc.sqlite")));
  assert.deepEqual(await wrongPins({ env, ephemeral: false }, 1), [true]);
  assert.deepEqual(await wrongPins({ env }, 1), [false], "the default again: a clean server");
});
