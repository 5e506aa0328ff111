// Reads the OpenRPC document into services: their models, methods, notifications and domain errors.

import { BUILTIN_SERVICE, isIdentifier, memberName, pascal, splitName } from "./names.mjs";
import { GenerationError, modelKind, unwrap } from "./types.mjs";

/** JSON-RPC's and the gateway's own codes; errors with these codes are not domain errors. */
const GATEWAY_CODES = [-32768, -32000];

/** Names a generated service module defines itself; no model may take them. */
const RESERVED_MODEL_NAMES = new Set(["Notifications", "Decimal", "DateTime", "CallOptions", "MutationOptions", "Caller"]);

/** An object schema made of OpenRPC content descriptors. */
export function paramsObject(descriptors) {
  const properties = {};
  const required = [];
  for (const descriptor of descriptors) {
    const schema = { ...(descriptor.schema ?? {}) };
    if (descriptor.description && !("$ref" in schema)) schema.description ??= descriptor.description;
    properties[descriptor.name] = schema;
    if (descriptor.required) required.push(descriptor.name);
  }
  return { type: "object", properties, required };
}

/** The service whose errors a method returns: `tatra` for `tatra.authorize` and for `sandbox.tatra.resetProfile`. */
export function errorService(method) {
  const parts = method.split(".");
  return parts[0] === "sandbox" && parts.length > 2 ? parts[1] : parts[0];
}

/**
 * The services of a document, sorted by name: `{name, proxy, models, methods, notifications,
 * errors}`, and `models` (full component name → model) for references.
 */
export function readDocument(document) {
  const services = new Map();
  const service = (name) => {
    if (!isIdentifier(name)) throw new GenerationError(`service name ${JSON.stringify(name)} is not a TypeScript identifier`);
    if (!services.has(name)) {
      services.set(name, { name, proxy: `${pascal(name)}Proxy`, base: `${pascal(name)}Error`, models: [], methods: [], notifications: [], errors: [] });
    }
    return services.get(name);
  };
  const components = document.components?.schemas ?? {};
  const models = new Map();
  for (const fullName of Object.keys(components).sort()) {
    const schema = components[fullName];
    if (!schema || typeof schema !== "object") throw new GenerationError(`components.schemas[${JSON.stringify(fullName)}] is not an object`);
    const [owner, rest] = splitName(fullName);
    const name = isIdentifier(rest) && /^[A-Z]/.test(rest) ? rest : pascal(rest);
    const model = { fullName, service: owner, name, schema, kind: modelKind(schema) };
    models.set(fullName, model);
    service(owner).models.push(model);
  }
  const methods = (document.methods ?? []).filter((m) => typeof m?.name === "string" && m.name.includes(".") && !m.name.startsWith("$/"));
  for (const method of methods) {
    const [owner, rest] = splitName(method.name);
    service(owner).methods.push({ ...method, member: memberName(rest) });
  }
  for (const notification of document["x-notifications"] ?? []) {
    if (typeof notification?.name !== "string" || !notification.name.includes(".")) continue;
    const [owner, rest] = splitName(notification.name);
    const schema = paramsObject(notification.params ?? []);
    schema.description = [notification.summary, notification.description].filter(Boolean).join("\n\n");
    const model = { fullName: notification.name, service: owner, name: `${pascal(rest)}Notification`, schema, kind: "object" };
    service(owner).notifications.push({ notification, model, names: [notification.name, ...(notification["x-aliases"] ?? [])] });
  }
  for (const entry of services.values()) checkNames(entry);
  assignErrors(methods, service, services);
  return { services: [...services.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), models };
}

/** Fails when two things of one service module would get the same TypeScript name. */
function checkNames(entry) {
  const seen = new Map([[entry.proxy, "the service's proxy class"], [entry.base, "the service's error base class"]]);
  for (const model of [...entry.models, ...entry.notifications.map((n) => n.model)]) {
    const other = RESERVED_MODEL_NAMES.has(model.name) ? "a name the module defines" : seen.get(model.name);
    if (other) throw new GenerationError(`${model.fullName}: its TypeScript name ${model.name} clashes with ${other} in services/${entry.name}.ts`);
    seen.set(model.name, model.fullName);
  }
  const members = new Map();
  for (const method of entry.methods) {
    if (members.has(method.member)) {
      throw new GenerationError(`methods ${members.get(method.member)} and ${method.name} both become ${entry.name}.${method.member}`);
    }
    members.set(method.member, method.name);
  }
}

/**
 * One error class per domain error code, owned by the service of the first method that
 * declares it (service methods before `sandbox.*` ones). Class name: the error message in
 * PascalCase ending in `Error`; the code is appended when that name is taken in the module.
 */
function assignErrors(methods, service, services) {
  const byCode = new Map();
  const ordered = [...methods.filter((m) => !m.name.startsWith("sandbox.")), ...methods.filter((m) => m.name.startsWith("sandbox."))];
  for (const method of ordered) {
    for (const entry of method.errors ?? []) {
      const code = entry.code;
      if (!Number.isInteger(code) || (code >= GATEWAY_CODES[0] && code <= GATEWAY_CODES[1])) continue;
      if (!byCode.has(code)) byCode.set(code, { owner: errorService(method.name), entry, users: new Set() });
      byCode.get(code).users.add(method.name);
    }
  }
  for (const code of [...byCode.keys()].sort((a, b) => b - a)) {
    const { owner, entry, users } = byCode.get(code);
    const target = service(owner);
    const taken = new Set([target.proxy, target.base, "Notifications", ...target.models.map((m) => m.name),
      ...target.notifications.map((n) => n.model.name), ...target.errors.map((e) => e.name)]);
    let name = pascal(String(entry.message ?? `Error ${code}`));
    if (!name.endsWith("Error")) name += "Error";
    if (taken.has(name)) name = `${name}${Math.abs(code)}`;
    target.errors.push({ code, name, entry, data: unwrap(entry.data), users: [...users].sort() });
  }
  services.forEach((s) => s.errors.sort((a, b) => b.code - a.code));
}

export { BUILTIN_SERVICE };
