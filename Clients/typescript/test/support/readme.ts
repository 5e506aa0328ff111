/** The README's examples and the output each shows, for the tests that compile and run them. */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CLIENT_DIR, payrpcBin } from "./server.js";

/** The first ```ts block of the README (or of its `## section`) and the ```text block right after it (its output). */
export function readmeExample(section?: string): { code: string; output: string } {
  let readme = fs.readFileSync(path.join(CLIENT_DIR, "README.md"), "utf8");
  if (section !== undefined) {
    const start = readme.indexOf(`\n## ${section}\n`);
    assert.ok(start >= 0, `README.md has a section "## ${section}"`);
    const end = readme.indexOf("\n## ", start + 1);
    readme = readme.slice(start, end < 0 ? undefined : end);
  }
  const match = /```ts\n([\s\S]*?)```\n(?:(?!```)[\s\S])*?```text\n([\s\S]*?)```/.exec(readme);
  assert.ok(match?.[1] && match[2], `README.md${section ? ` (${section})` : ""} has a \`\`\`ts example followed by a \`\`\`text block of its output`);
  return { code: match[1], output: match[2] };
}

/** Compiles `example.ts` in `dir` with tsc as an ES module (Node's types from the client's .types/). */
export function compileExample(dir: string, code: string): string {
  fs.writeFileSync(path.join(dir, "example.ts"), code);
  const compiled = spawnSync(
    "tsc",
    ["--strict", "--target", "ES2022", "--module", "ES2022", "--moduleResolution", "node", "--types", "node",
      "--typeRoots", path.join(CLIENT_DIR, ".types"), "--skipLibCheck", "--outDir", dir, path.join(dir, "example.ts")],
    { encoding: "utf8", cwd: dir },
  );
  assert.equal(compiled.status, 0, `tsc: ${compiled.stdout}${compiled.stderr}`);
  return path.join(dir, "example.js");
}

/**
 * A child's environment: the binary under test, and a home, data home and temporary directory
 * inside `root`, so that what a run leaves behind can be seen (`leftovers`).
 */
export function exampleEnvironment(root: string): NodeJS.ProcessEnv {
  for (const name of ["home", "data", "tmp"]) fs.mkdirSync(path.join(root, name), { recursive: true });
  return {
    ...process.env,
    PAYRPC_BIN: payrpcBin(),
    HOME: path.join(root, "home"),
    XDG_DATA_HOME: path.join(root, "data"),
    TMPDIR: path.join(root, "tmp"),
  };
}

/** Runs a compiled example with node and returns its stdout; fails with its output otherwise. */
export function runExample(script: string, env: NodeJS.ProcessEnv, cwd: string): string {
  const run = spawnSync(process.execPath, [script], { encoding: "utf8", env, cwd, timeout: 60_000 });
  assert.equal(run.status, 0, `the README example: ${run.stdout}${run.stderr}`);
  return run.stdout;
}

/** What runs left in the data home and the temporary directory of `exampleEnvironment(root)`. */
export function leftovers(root: string): string[] {
  return ["data", "tmp"].flatMap((name) => fs.readdirSync(path.join(root, name)).map((entry) => `${name}/${entry}`));
}
