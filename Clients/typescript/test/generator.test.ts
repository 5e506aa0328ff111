// The committed src/generated is exactly what the generator writes from Schemas/openrpc.json.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { CLIENT_DIR, tempDir } from "./support/server.js";

const GENERATOR = path.join(CLIENT_DIR, "tools", "generate.mjs");
const SCHEMA = path.join(CLIENT_DIR, "..", "..", "Schemas", "openrpc.json");
const GENERATED = path.join(CLIENT_DIR, "src", "generated");

function generate(out: string): string[] {
  const run = spawnSync(process.execPath, [GENERATOR, "--schema", SCHEMA, "--out", out], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split("\n").filter(Boolean);
}

function files(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.set(path.relative(dir, full), fs.readFileSync(full, "utf8"));
    }
  };
  walk(dir);
  return found;
}

test("regenerating into a copy of src/generated changes nothing", () => {
  const scratch = tempDir();
  fs.cpSync(GENERATED, scratch, { recursive: true });
  assert.deepEqual(generate(scratch), [], "the committed stubs are stale: run tools/generate.mjs");
  assert.deepEqual(files(scratch), files(GENERATED));
});

test("into an empty folder it writes the same files; stale generated files go, others stay", () => {
  const scratch = tempDir();
  generate(scratch);
  assert.deepEqual(files(scratch), files(GENERATED));
  const header = fs.readFileSync(path.join(scratch, "openrpc.ts"), "utf8").split("\n", 1)[0];
  fs.writeFileSync(path.join(scratch, "services", "gone.ts"), `${header}\nexport {};\n`);
  fs.writeFileSync(path.join(scratch, "mine.ts"), "// hand-written\n");
  assert.deepEqual(generate(scratch), [`removed ${path.join(scratch, "services", "gone.ts")}`]);
  assert.ok(!fs.existsSync(path.join(scratch, "services", "gone.ts")));
  assert.ok(fs.existsSync(path.join(scratch, "mine.ts")));
});

test("every generated file says so on its first line, as tools expect", () => {
  for (const [name, text] of files(GENERATED)) {
    assert.match(text.split("\n", 1)[0] ?? "", /^\/\/ Code generated .* DO NOT EDIT\.$/, name);
  }
});
