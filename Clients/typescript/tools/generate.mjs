#!/usr/bin/env node
// Generates the typed TypeScript stubs of payrpc from the OpenRPC document.
//
//   node Clients/typescript/tools/generate.mjs --schema Schemas/openrpc.json --out Clients/typescript/src/generated
//
// Writes, under the --out folder and nowhere else (deterministically, so a drift check can
// regenerate into a copy and diff):
//   services/<service>.ts  models (interfaces, string-literal unions), notification params, the proxy class
//   services/index.ts      the namespaces, `Services`/`createServices` (client.<service>), `NotificationMap`
//   errors/<service>.ts    one class per domain error code with typed `data`; errors/index.ts by code
//   openrpc.ts             the document itself, which the client validates messages against
// Files under --out that start with the generated header and are no longer produced are deleted.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readDocument } from "./codegen/document.mjs";
import { errorsIndex, errorsModule } from "./codegen/errors.mjs";
import { documentModule, servicesIndex } from "./codegen/indexes.mjs";
import { HEADER } from "./codegen/names.mjs";
import { serviceModule } from "./codegen/services.mjs";
import { GenerationError, TypeMapper } from "./codegen/types.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_SCHEMA = path.join(HERE, "..", "..", "..", "Schemas", "openrpc.json");
const DEFAULT_OUT = path.join(HERE, "..", "src", "generated");

/** Every generated file (path relative to the out folder → text) for a parsed document. */
export function render(document) {
  const { services, models } = readDocument(document);
  const mapper = new TypeMapper(models);
  const errorOwners = new Map(services.flatMap((s) => s.errors.map((e) => [e.code, `${s.name}.${e.name}`])));
  const files = new Map();
  for (const service of services) {
    files.set(`services/${service.name}.ts`, serviceModule(service, mapper, errorOwners));
    if (service.errors.length) files.set(`errors/${service.name}.ts`, errorsModule(service, mapper));
  }
  files.set("services/index.ts", servicesIndex(services));
  files.set("errors/index.ts", errorsIndex(services));
  files.set("openrpc.ts", documentModule(document));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The files under `out` that this generator wrote (they start with its header). */
function generatedFiles(out, folder = out) {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return generatedFiles(out, full);
    const first = fs.readFileSync(full, "utf8").split("\n", 1)[0];
    return entry.isFile() && first === HEADER ? [path.relative(out, full).split(path.sep).join("/")] : [];
  });
}

/** Writes the stubs of the document at `schemaPath` into `out`; returns the paths it wrote and removed. */
export function write(schemaPath, out) {
  const files = render(JSON.parse(fs.readFileSync(schemaPath, "utf8")));
  const removed = [];
  for (const stale of generatedFiles(out)) {
    if (!files.has(stale)) {
      fs.unlinkSync(path.join(out, stale));
      removed.push(stale);
    }
  }
  const written = [];
  for (const [relative, text] of files) {
    const target = path.join(out, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (!fs.existsSync(target) || fs.readFileSync(target, "utf8") !== text) {
      fs.writeFileSync(target, text);
      written.push(relative);
    }
  }
  return { written, removed };
}

function main(argv) {
  let schema = DEFAULT_SCHEMA;
  let out = DEFAULT_OUT;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if ((arg === "--schema" || arg === "--out") && i + 1 < argv.length) {
      if (arg === "--schema") schema = argv[++i];
      else out = argv[++i];
    } else if (arg === "-h" || arg === "--help") {
      console.log("usage: node tools/generate.mjs [--schema Schemas/openrpc.json] [--out src/generated]");
      return 0;
    } else {
      console.error(`generate.mjs: unknown argument ${arg} (see --help)`);
      return 2;
    }
  }
  try {
    const { written, removed } = write(schema, out);
    for (const relative of removed) console.log(`removed ${path.join(out, relative)}`);
    for (const relative of written) console.log(`wrote ${path.join(out, relative)}`);
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error;
    console.error(`generate.mjs: ${schema}: ${error.message}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
