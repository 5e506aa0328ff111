// The README's examples, extracted, compiled with tsc and run against the real binary: the first,
// three times, prints exactly the output the README shows every time and leaves nothing behind;
// the call journal's prints the failure message the README shows.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { compileExample, exampleEnvironment, leftovers, readmeExample, runExample } from "./support/readme.js";
import { CLIENT_DIR, tempDir } from "./support/server.js";

test("the README example prints what the README shows, every time", () => {
  const { code, output } = readmeExample();
  assert.ok(code.trim().split("\n").length <= 10, "the example stays short");
  // Inside the package folder, so that `import ... from "payrpc"` resolves to this package.
  const dir = path.join(CLIENT_DIR, "dist", "readme-example");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const script = compileExample(dir, code);
  const root = tempDir();
  const env = exampleEnvironment(root);
  const outputs = [1, 2, 3].map(() => runExample(script, env, root));
  assert.deepEqual(outputs, [output, output, output]);
  // Every spawned server was ephemeral: nothing in the default data directory, and each
  // removed its temporary directory when it exited.
  assert.deepEqual(leftovers(root), []);
});

test("the call journal example prints the failure the README shows", () => {
  const { code, output } = readmeExample("The call journal in tests");
  const dir = path.join(CLIENT_DIR, "dist", "readme-calls-example");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const script = compileExample(dir, code);
  const root = tempDir();
  assert.equal(runExample(script, exampleEnvironment(root), root), output);
});
