/**
 * Loading ajv 6 (JSON Schema draft-07), a CommonJS package: from `NODE_PATH` or node_modules,
 * else from Debian's module folder (`/usr/share/nodejs`, package `node-ajv`).
 */

import { createRequire } from "node:module";

/** One error ajv reports (ajv 6, with `jsonPointers`). */
export interface AjvError {
  keyword: string;
  dataPath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled schema: call it with a value; `errors` is set when it returns false. */
export interface AjvValidate {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

/** The part of an ajv 6 instance the client uses. */
export interface Ajv {
  compile(schema: object): AjvValidate;
}

type AjvConstructor = new (options: Record<string, unknown>) => Ajv;

const DEBIAN_MODULES = "/usr/share/nodejs";
let constructor: AjvConstructor | undefined;

/** A new ajv instance reporting every violation with a JSON Pointer. Throws when ajv 6 is not installed. */
export function createAjv(): Ajv {
  constructor ??= loadAjv();
  return new constructor({ allErrors: true, jsonPointers: true, errorDataPath: "property", schemaId: "$id" });
}

function loadAjv(): AjvConstructor {
  const require = createRequire(import.meta.url);
  for (const id of ["ajv", `${DEBIAN_MODULES}/ajv`]) {
    try {
      const loaded = require(id) as AjvConstructor | { default: AjvConstructor };
      return "default" in loaded ? loaded.default : loaded;
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  throw new Error(
    "payrpc: validation needs ajv 6 (draft-07): install Debian's node-ajv and set NODE_PATH=/usr/share/nodejs, " +
      "or put ajv@6 in node_modules; or pass validate: false",
  );
}
