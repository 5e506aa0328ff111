// The README's first example, extracted, compiled with tsc and run three times against the real
// binary: every run prints exactly the output the README shows, and leaves nothing behind.

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
