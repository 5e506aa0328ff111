// Renders `services/index.ts` (the service namespaces, the proxies of a client, the notification map)
// and `openrpc.ts` (the document itself, which the client validates messages against).

import { HEADER, jsdoc } from "./names.mjs";

/** The text of `services/index.ts`. */
export function servicesIndex(services) {
  const lines = [HEADER, ...jsdoc("The generated services: a namespace per service, the proxies a client carries, and the notification map."), ""];
  lines.push('import type { Caller } from "../../types.js";');
  for (const s of services) lines.push(`import { ${s.proxy} } from "./${s.name}.js";`);
  for (const s of services) lines.push(`import type * as _${s.name} from "./${s.name}.js";`);
  lines.push("");
  for (const s of services) lines.push(`export * as ${s.name} from "./${s.name}.js";`);
  lines.push("", "/** The names of the services. */", `export const SERVICES = [${services.map((s) => JSON.stringify(s.name)).join(", ")}] as const;`, "");
  lines.push("/** The service proxies of a client: `client.<service>.<method>(...)`. */", "export interface Services {");
  for (const s of services) lines.push(`  /** The ${s.name} methods. */`, `  readonly ${s.name}: ${s.proxy};`);
  lines.push("}", "", "/** The proxies of every service, calling through `caller`. */", "export function createServices(caller: Caller): Services {", "  return {");
  for (const s of services) lines.push(`    ${s.name}: new ${s.proxy}(caller),`);
  lines.push("  };", "}", "");
  lines.push("/** The params of every notification the server sends, by method name. */");
  lines.push(`export interface NotificationMap extends ${services.map((s) => `_${s.name}.Notifications`).join(", ")} {}`, "");
  return lines.join("\n");
}

/** The text of `openrpc.ts`. */
export function documentModule(document) {
  return [
    HEADER,
    "/** The OpenRPC document the stubs were generated from; the client validates messages against it. */",
    `export const DOCUMENT: unknown = ${JSON.stringify(document, null, 2)};`,
    "",
  ].join("\n");
}
