// Renders `errors/<service>.ts` (one class per domain error, with typed `data`) and `errors/index.ts`.

import { HEADER, jsdoc } from "./names.mjs";

/** The text of `errors/<service>.ts`. */
export function errorsModule(service, mapper) {
  const context = { service: service.name, imports: new Set(), qualifyAll: true };
  const body = [
    ...jsdoc(`Any domain error of the ${service.name} service.`),
    `export class ${service.base} extends DomainError {`,
    "  /** The service whose error this is. */",
    `  static override readonly service: string | undefined = ${JSON.stringify(service.name)};`,
    "}",
  ];
  for (const error of service.errors) {
    const data = error.data === undefined ? "unknown" : mapper.type(error.data, context, `error ${error.code}/data`);
    const dataSchema = error.data && typeof error.data === "object" && "$ref" in error.data ? mapper.refModel(error.data, `error ${error.code}`).schema : error.data;
    const doc = [`${error.entry.message ?? ""} (code ${error.code}).`];
    if (dataSchema?.description) doc.push(dataSchema.description.trim());
    doc.push(`Returned by: ${error.users.map((u) => `\`${u}\``).join(", ")}.`);
    body.push(
      "",
      ...jsdoc(doc.join("\n\n")),
      `export class ${error.name} extends ${service.base} {`,
      "  /** The error code this class stands for. */",
      `  static readonly code = ${error.code};`,
      "  /** The error's `data`, typed by its schema (the class comment says what it holds). */",
      `  declare readonly data: ${data};`,
      "}",
    );
  }
  const head = [HEADER, ...jsdoc(`The domain errors of the ${service.name} service, one class per error code.\n\n\`instanceof ${service.base}\` matches them all.`), ""];
  head.push('import { DomainError } from "../../errors.js";');
  for (const other of [...context.imports].sort()) head.push(`import type * as _${other} from "../services/${other}.js";`);
  return [...head, "", ...body, ""].join("\n");
}

/** The text of `errors/index.ts`: every domain error class by its code. */
export function errorsIndex(services) {
  const withErrors = services.filter((s) => s.errors.length);
  const rows = withErrors.flatMap((s) => s.errors.map((e) => [e.code, `_${s.name}.${e.name}`])).sort((a, b) => b[0] - a[0]);
  return [
    HEADER,
    ...jsdoc("Every domain error class by its code (the client looks here to build the error of an answer)."),
    "",
    'import type { RpcErrorClass } from "../../errors.js";',
    ...withErrors.map((s) => `import * as _${s.name} from "./${s.name}.js";`),
    "",
    "/** The domain error classes by code. */",
    "export const DOMAIN_ERRORS: ReadonlyMap<number, RpcErrorClass> = new Map<number, RpcErrorClass>([",
    ...rows.map(([code, cls]) => `  [${code}, ${cls}],`),
    "]);",
    "",
  ].join("\n");
}
