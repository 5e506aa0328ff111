// The README's first example, extracted, compiled with tsc and run against the real binary.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { CLIENT_DIR, payrpcBin, tempDir } from "./support/server.js";

/** The first ```ts block of the README. */
function example(): string {
  const readme = fs.readFileSync(path.join(CLIENT_DIR, "README.md"), "utf8");
  const match = /```ts\n([\s\S]*?)```/.exec(readme);
  assert.ok(match?.[1], "README.md has a ```ts example");
  return match[1];
}

test("the README example compiles and runs as written", () => {
  const code = example();
  assert.ok(code.split("\n").length <= 20, "the example stays short");
  // Inside the package folder, so that `import ... from "payrpc"` resolves to this package.
  const dir = path.join(CLIENT_DIR, "dist", "readme-example");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "example.ts"), code);
  const compiled = spawnSync(
    "tsc",
    ["--strict", "--target", "ES2022", "--module", "ES2022", "--moduleResolution", "node", "--types", "node",
      "--typeRoots", path.join(CLIENT_DIR, ".types"), "--skipLibCheck", "--outDir", dir, path.join(dir, "example.ts")],
    { encoding: "utf8" },
  );
  assert.equal(compiled.status, 0, `tsc: ${compiled.stdout}${compiled.stderr}`);
  const run = spawnSync(process.execPath, [path.join(dir, "example.js")], {
    encoding: "utf8",
    env: { ...process.env, PAYRPC_BIN: payrpcBin(), XDG_DATA_HOME: tempDir() }, // a fresh data directory
    timeout: 60_000,
  });
  assert.equal(run.status, 0, `example: ${run.stdout}${run.stderr}`);
  assert.match(run.stdout, /^limit: \d+\.\d{2}$/m);
  assert.match(run.stdout, /^blocked: false$/m);
});
