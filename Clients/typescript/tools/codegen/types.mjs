// JSON Schema (draft-07, as the OpenRPC document's components use it) → TypeScript type text.

import { DECIMAL_PATTERN, jsdoc, propertyKey } from "./names.mjs";

const REF_PREFIX = "#/components/schemas/";
const TYPE_KEYWORDS = ["type", "$ref", "enum", "const", "properties", "items", "anyOf", "oneOf", "allOf", "additionalProperties"];

/** The document has a shape the generator cannot express; the message says where. */
export class GenerationError extends Error {}

/** `{"allOf": [X], "description": ...}` (a described `$ref`) → X. */
export function unwrap(schema) {
  while (
    schema && typeof schema === "object" && Array.isArray(schema.allOf) && schema.allOf.length === 1 &&
    !["type", "properties", "$ref", "anyOf", "oneOf", "enum"].some((k) => k in schema)
  ) {
    schema = schema.allOf[0];
  }
  return schema;
}

/** How a component is declared: an interface, a union of string literals, or a type alias. */
export function modelKind(schema) {
  const combined = ["oneOf", "anyOf", "allOf", "$ref"].some((k) => k in schema);
  if ("properties" in schema || (schema.type === "object" && !("additionalProperties" in schema) && !combined)) return "object";
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => typeof v === "string")) return "enum";
  return "alias";
}

/**
 * Turns schemas into TypeScript types. `models` maps a component's full name
 * (`tatra.Contact`) to `{service, name}`; a reference to a model of another service (or, with
 * `qualifyAll`, of any service) is written `_service.Name` and its service added to `imports`.
 */
export class TypeMapper {
  constructor(models) {
    this.models = models;
  }

  /** The model a `$ref` schema names, or undefined when the schema is no reference. */
  refModel(schema, where) {
    if (!("$ref" in schema)) return undefined;
    const ref = schema.$ref;
    const model = typeof ref === "string" && ref.startsWith(REF_PREFIX) ? this.models.get(ref.slice(REF_PREFIX.length)) : undefined;
    if (!model) throw new GenerationError(`${where}: unsupported $ref ${JSON.stringify(ref)} (only ${REF_PREFIX}<name> of this document)`);
    return model;
  }

  /** The type of `schema`, written from the module of `context.service` (`context.imports` collects other services). */
  type(schema, context, where) {
    schema = unwrap(schema);
    if (schema === true || schema === undefined) return "unknown";
    if (schema === false) return "never";
    if (typeof schema !== "object" || schema === null) throw new GenerationError(`${where}: a schema must be an object`);
    const model = this.refModel(schema, where);
    if (model) {
      if (model.service === context.service && !context.qualifyAll) return model.name;
      context.imports.add(model.service);
      return `_${model.service}.${model.name}`;
    }
    if ("const" in schema) return JSON.stringify(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ") || "never";
    for (const key of ["anyOf", "oneOf"]) {
      const branches = schema[key];
      if (Array.isArray(branches) && branches.length && branches.every((b) => isTypeBranch(b))) {
        return union(branches.map((b, i) => this.type(b, context, `${where}/${key}/${i}`)));
      }
    }
    if (Array.isArray(schema.allOf) && schema.allOf.some(isTypeBranch)) {
      const parts = schema.allOf.filter(isTypeBranch).map((b, i) => this.type(b, context, `${where}/allOf/${i}`));
      const rest = { ...schema };
      delete rest.allOf;
      if (TYPE_KEYWORDS.some((k) => k in rest)) parts.push(this.type(rest, context, where));
      return parts.map(parenthesize).join(" & ");
    }
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    if (types.length === 0) {
      if ("properties" in schema || "additionalProperties" in schema) return this.objectType(schema, context, where);
      if ("items" in schema) return this.single("array", schema, context, where);
      return "unknown";
    }
    return union(types.map((t) => this.single(t, schema, context, where)));
  }

  /** The type for one value of `type`. */
  single(kind, schema, context, where) {
    switch (kind) {
      case "string":
        if (schema.pattern === DECIMAL_PATTERN) return "Decimal";
        if (schema.format === "date-time") return "DateTime";
        return "string";
      case "integer":
      case "number":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array":
        if (Array.isArray(schema.items)) {
          return `[${schema.items.map((s, i) => this.type(s, context, `${where}/items/${i}`)).join(", ")}]`;
        }
        return `Array<${this.type(schema.items, context, `${where}/items`)}>`;
      case "object":
        return this.objectType(schema, context, where);
      default:
        throw new GenerationError(`${where}: unknown type ${JSON.stringify(kind)}`);
    }
  }

  /** An inline object type: `{ a: A; b?: B }`, or an index signature for maps. */
  objectType(schema, context, where) {
    const properties = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    const members = Object.entries(properties).map(([name, prop]) => {
      const optional = required.has(name) ? "" : "?";
      return `${propertyKey(name)}${optional}: ${this.type(prop, context, `${where}/properties/${name}`)}`;
    });
    const extra = schema.additionalProperties;
    if (extra && typeof extra === "object") {
      const value = this.type(extra, context, `${where}/additionalProperties`);
      members.push(`[key: string]: ${members.length ? "unknown" : value}`);
    } else if (members.length === 0) {
      return extra === false ? "Record<string, never>" : "Record<string, unknown>";
    }
    return `{ ${members.join("; ")} }`;
  }

  /** The members of an interface for an object schema, each with its description as JSDoc. */
  interfaceMembers(schema, context, where, indent) {
    const required = new Set(schema.required ?? []);
    const lines = [];
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      const text = prop && typeof prop === "object" ? prop.description ?? unwrap(prop).description : undefined;
      lines.push(...jsdoc(text, indent));
      const optional = required.has(name) ? "" : "?";
      lines.push(`${indent}${propertyKey(name)}${optional}: ${this.type(prop, context, `${where}/properties/${name}`)};`);
    }
    const extra = schema.additionalProperties;
    if (extra && typeof extra === "object") lines.push(`${indent}[key: string]: unknown;`);
    return lines;
  }
}

/** Whether a branch of `anyOf`/`oneOf`/`allOf` says what type a value is (not only which members it needs). */
function isTypeBranch(branch) {
  return branch === true || branch === false || (branch && typeof branch === "object" && TYPE_KEYWORDS.some((k) => k in branch));
}

function parenthesize(type) {
  return /[|&]/.test(type) && !/^[{[]/.test(type) ? `(${type})` : type;
}

function union(types) {
  const unique = [...new Set(types)];
  return unique.length === 1 ? unique[0] : unique.map(parenthesize).join(" | ");
}
