// The package as another project installs it, offline: `npm pack` of a clean copy (its prepare
// script builds dist/ with build.sh), `npm install --offline` of the tarball into a new project,
// and the README example compiled there against the installed types and run, with ajv from
// Debian's module folder (NODE_PATH, as run-tests.sh sets it).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { compileExample, exampleEnvironment, readmeExample, runExample } from "./support/readme.js";
import { CLIENT_DIR, tempDir } from "./support/server.js";

/** What a checkout of the client holds that the package is built from (and the cached Node types). */
const SOURCES = ["package.json", "build.sh", "tsconfig.json", "README.md", "src", ".cache"];

function npm(args: string[], cwd: string, cache: string): string {
  const run = spawnSync("npm", [...args, "--offline", "--no-audit", "--no-fund", "--no-update-notifier"], {
    cwd, encoding: "utf8", env: { ...process.env, npm_config_cache: cache }, timeout: 300_000,
  });
  assert.equal(run.status, 0, `npm ${args.join(" ")}: ${run.stdout}${run.stderr}`);
  return run.stdout;
}

test("npm pack, then npm install --offline of the tarball, gives a package the README example runs with", () => {
  const root = tempDir();
  const cache = path.join(root, "npm-cache");
  const checkout = path.join(root, "checkout");
  for (const name of SOURCES) {
    if (fs.existsSync(path.join(CLIENT_DIR, name))) fs.cpSync(path.join(CLIENT_DIR, name), path.join(checkout, name), { recursive: true });
  }
  const tarball = npm(["pack", "--pack-destination", root], checkout, cache).trim().split("\n").pop() ?? "";
  assert.equal(tarball, "payrpc-0.1.0.tgz");

  const project = path.join(root, "project");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "uses-payrpc", private: true, type: "module" }));
  npm(["install", path.join(root, tarball)], project, cache);
  const installed = path.join(project, "node_modules", "payrpc");
  assert.ok(fs.existsSync(path.join(installed, "dist", "src", "index.d.ts")), "the package carries its types");
  assert.ok(!fs.existsSync(path.join(installed, "dist", "test")), "and not the client's tests");
  assert.ok(!fs.existsSync(path.join(project, "node_modules", "ajv")), "ajv stays an optional peer: nothing fetched");

  const { code, output } = readmeExample();
  const script = compileExample(project, code);
  assert.equal(runExample(script, exampleEnvironment(root), project), output);
});
