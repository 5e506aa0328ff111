/**
 * Validation of messages against the OpenRPC document with ajv (draft-07): params before they
 * are sent, results and notifications as they arrive.
 *
 * The document's `$ref`s point at `#/components/schemas/<service>.<Model>`; every schema is
 * compiled inside a root that carries the document's `components`, so they resolve as written.
 */

import { createAjv, type Ajv, type AjvError, type AjvValidate } from "./ajv.js";
import { ValidationError, isObject, type Violation } from "./errors.js";

interface Descriptor {
  name: string;
  required?: boolean;
  schema?: unknown;
}

interface Entry {
  name: string;
  params?: Descriptor[];
  result?: { schema?: unknown };
}

type Kind = "params" | "positional" | "result" | "notification";

/** The schemas of one OpenRPC document: params, results and notifications by method name. */
export class SchemaSet {
  private readonly ajv: Ajv;
  private readonly components: unknown;
  private readonly methods = new Map<string, Entry>();
  private readonly notifications = new Map<string, Entry>();
  private readonly cache = new Map<string, AjvValidate | null>();

  /** Validators for `document` (compiled on first use, cached). Throws when ajv is missing. */
  constructor(document: unknown) {
    this.ajv = createAjv();
    const doc = isObject(document) ? document : {};
    this.components = isObject(doc["components"]) ? doc["components"] : {};
    for (const entry of asEntries(doc["methods"])) this.methods.set(entry.name, entry);
    for (const entry of asEntries(doc["x-notifications"])) {
      this.notifications.set(entry.name, entry);
      const aliases = (entry as { "x-aliases"?: unknown })["x-aliases"];
      if (Array.isArray(aliases)) for (const alias of aliases) if (typeof alias === "string") this.notifications.set(alias, entry);
    }
  }

  /** Checks params (without `_meta`), by name or by position; throws ValidationError. */
  validateParams(method: string, params: unknown): void {
    const kind = Array.isArray(params) ? "positional" : "params";
    this.check(kind, method, params ?? {}, `params of ${method}`);
  }

  /** Checks a method's result; throws ValidationError. */
  validateResult(method: string, result: unknown): void {
    this.check("result", method, result, `result of ${method}`);
  }

  /** Checks a server notification's params; throws ValidationError. */
  validateNotification(method: string, params: unknown): void {
    this.check("notification", method, params ?? {}, `notification ${method}`);
  }

  private check(kind: Kind, name: string, value: unknown, what: string): void {
    const validate = this.validator(kind, name);
    if (validate === null || validate(value)) return;
    const violations: Violation[] = (validate.errors ?? []).map(toViolation);
    violations.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
    throw new ValidationError(what, violations);
  }

  private validator(kind: Kind, name: string): AjvValidate | null {
    const key = `${kind} ${name}`;
    let validate = this.cache.get(key);
    if (validate === undefined) {
      const schema = this.schema(kind, name);
      validate = schema === undefined ? null : this.ajv.compile({ allOf: [schema], components: this.components });
      this.cache.set(key, validate);
    }
    return validate;
  }

  /** The schema of a message, or undefined when the document does not describe it (not validated). */
  private schema(kind: Kind, name: string): unknown {
    const entry = kind === "notification" ? this.notifications.get(name) : this.methods.get(name);
    if (entry === undefined) return undefined;
    if (kind === "result") return entry.result === undefined ? undefined : entry.result.schema ?? {};
    const descriptors = entry.params ?? [];
    if (kind === "positional") {
      const required = descriptors.reduce((count, d, index) => (d.required ? index + 1 : count), 0);
      return { type: "array", items: descriptors.map((d) => d.schema ?? {}), additionalItems: false, minItems: required };
    }
    return {
      type: "object",
      properties: Object.fromEntries(descriptors.map((d) => [d.name, d.schema ?? {}])),
      required: descriptors.filter((d) => d.required).map((d) => d.name),
      additionalProperties: false,
    };
  }
}

function asEntries(value: unknown): Entry[] {
  return Array.isArray(value) ? value.filter((v): v is Entry => isObject(v) && typeof v["name"] === "string") : [];
}

function toViolation(error: AjvError): Violation {
  return { pointer: error.dataPath, keyword: error.keyword, message: error.message ?? error.keyword };
}
