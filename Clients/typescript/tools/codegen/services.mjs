// Renders `services/<service>.ts`: the models, notifications and proxy class of one service.

import { HEADER, jsdoc, oneLine, propertyKey, variable } from "./names.mjs";
import { paramsObject } from "./document.mjs";

const RUNTIME_TYPES = ["CallOptions", "Caller", "DateTime", "Decimal", "MutationOptions"];

/** The text of `services/<service>.ts`. */
export function serviceModule(service, mapper, errorOwners) {
  const context = { service: service.name, imports: new Set() };
  const body = [];
  for (const model of service.models) body.push(...modelCode(model, mapper, context), "");
  for (const { model } of service.notifications) body.push(...modelCode(model, mapper, context), "");
  body.push(...notificationsCode(service), "");
  body.push(...proxyCode(service, mapper, context, errorOwners));
  const text = body.join("\n");
  const head = [
    HEADER,
    ...jsdoc(
      `The ${service.name} service: its models, notifications${service.errors.length ? ", errors" : ""} and method proxy.\n\n` +
        `Use it through a client: \`client.${service.name}.<method>(...)\`.`,
    ),
    "",
  ];
  const used = RUNTIME_TYPES.filter((name) => new RegExp(`\\b${name}\\b`).test(text));
  if (used.length) head.push(`import type { ${used.join(", ")} } from "../../types.js";`);
  for (const other of [...context.imports].sort()) head.push(`import type * as _${other} from "./${other}.js";`);
  if (service.errors.length) head.push("", `export * from "../errors/${service.name}.js";`);
  return [...head, "", text.trimEnd(), ""].join("\n");
}

function modelCode(model, mapper, context) {
  const schema = model.schema;
  const where = model.fullName;
  const lines = jsdoc(schema.description || schema.title || `The model ${model.fullName}.`);
  if (model.kind === "object") {
    if (Object.keys(schema.properties ?? {}).length === 0 && !(schema.additionalProperties && typeof schema.additionalProperties === "object")) {
      lines.push(`export type ${model.name} = ${schema.additionalProperties === false ? "Record<string, never>" : "Record<string, unknown>"};`);
      return lines;
    }
    lines.push(`export interface ${model.name} {`, ...mapper.interfaceMembers(schema, context, where, "  "), "}");
    return lines;
  }
  lines.push(`export type ${model.name} = ${mapper.type(schema, context, where)};`);
  return lines;
}

function notificationsCode(service) {
  const lines = jsdoc(`The params of each notification of the ${service.name} service, by method name (aliases included).`);
  if (!service.notifications.length) return [...lines, "export interface Notifications {}"];
  lines.push("export interface Notifications {");
  for (const { notification, model, names } of service.notifications) {
    for (const name of names) {
      const summary = name === notification.name ? notification.summary : `Another name of \`${notification.name}\`.`;
      lines.push(...jsdoc(summary, "  "), `  ${JSON.stringify(name)}: ${model.name};`);
    }
  }
  lines.push("}");
  return lines;
}

function proxyCode(service, mapper, context, errorOwners) {
  const lines = jsdoc(`The ${service.name} methods of a client: \`client.${service.name}.<method>(...)\`.`);
  lines.push(`export class ${service.proxy} {`);
  lines.push("  /** A proxy that calls through `caller` (a client). */", "  constructor(private readonly caller: Caller) {}");
  for (const method of service.methods) lines.push("", ...methodCode(method, mapper, context, errorOwners));
  lines.push("}");
  return lines;
}

function methodCode(method, mapper, context, errorOwners) {
  const descriptors = method.params ?? [];
  const options = method["x-mutates"] ? "MutationOptions" : "CallOptions";
  const result = mapper.type(method.result?.schema ?? {}, context, `${method.name}/result`);
  const paramDocs = [];
  let signature;
  let params;
  if (descriptors.length === 0) {
    signature = `options?: ${options}`;
    params = "{}";
  } else if (descriptors.length === 1) {
    // One param: positional (`client.tatra.authorize("1234")`).
    const [descriptor] = descriptors;
    const name = variable(descriptor.name, ["options"]);
    const type = mapper.type(descriptor.schema ?? {}, context, `${method.name}/params/${descriptor.name}`);
    signature = `${name}${descriptor.required ? "" : "?"}: ${type}, options?: ${options}`;
    const object = `{ ${propertyKey(descriptor.name) === name ? name : `${propertyKey(descriptor.name)}: ${name}`} }`;
    params = descriptor.required ? object : `${name} === undefined ? {} : ${object}`;
    const text = descriptor.description ?? descriptor.summary;
    if (text) paramDocs.push(`@param ${name} ${oneLine(text)}`);
  } else {
    // Several: one object, so a call never depends on the order of the document's params.
    const schema = paramsObject(descriptors);
    const type = mapper.objectType(schema, context, `${method.name}/params`);
    const optional = descriptors.some((d) => d.required) ? "" : " = {}";
    signature = `params: ${type}${optional}, options?: ${options}`;
    params = "params";
    for (const descriptor of descriptors) {
      const text = descriptor.description ?? descriptor.summary;
      if (text) paramDocs.push(`@param params.${descriptor.name} ${oneLine(text)}`);
    }
  }
  const doc = [method.summary, method.description].filter(Boolean).map((t) => t.trim());
  doc.push(`Calls \`${method.name}\`${method["x-mutates"] ? " (changes state: takes an `idempotencyKey`)" : ""}.`);
  const raises = (method.errors ?? [])
    .filter((e) => errorOwners.has(e.code))
    .map((e) => `- \`${errorOwners.get(e.code)}\`: ${e.message ?? ""} (${e.code})`);
  if (raises.length) doc.push(`Rejects with, besides the gateway errors:\n${raises.join("\n")}`);
  const tags = [...paramDocs, `@param options Timeout, abort signal${method["x-mutates"] ? ", idempotency key" : ""}.`];
  return [
    ...jsdoc(`${doc.join("\n\n")}\n\n${tags.join("\n")}`, "  "),
    `  ${method.member}(${signature}): Promise<${result}> {`,
    `    return this.caller.call<${result}>(${JSON.stringify(method.name)}, ${params}, options);`,
    "  }",
  ];
}

