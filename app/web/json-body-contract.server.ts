import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import * as z from "zod/mini";
import { isSiteIri } from "~/schemas/iri";
import { fieldName } from "~/util/field-name";
import { fieldErrors } from "~/services/validation";
import { buildOpenApiDocument, jsonBodySchemas } from "./openapi.server";

/**
 * JSON bodies held to the OpenAPI document, exactly, before the shared schemas read them. Those schemas also read
 * HTML forms, where a ticked checkbox is "on", an empty box arrives as "", a list of one is one field and the empty
 * last highlight is dropped; read on their own they would take `"modes": "AAA"` for a list, drop `null` items, take
 * "" for an e-mail or a link (as none) and `"5"` for a number. A JSON client gets the document instead: the body is
 * validated against the operation's request schema (JSON Schema 2020-12, with its formats and patterns) and
 * whatever it refuses is a 400. Where the shared schema refuses the same field, the service's own message is
 * given (the spec's words: "Title is required"); what only the document refuses gets the messages below.
 */

export const BOOLEAN_MESSAGE = "Must be true or false";
export const NULL_MESSAGE = "Must not be null";
export const NUMBER_MESSAGE = "Must be a number";
export const INTEGER_MESSAGE = "Must be a whole number";
export const TEXT_MESSAGE = "Must be text";
export const LIST_MESSAGE = "Must be a list";
export const OBJECT_MESSAGE = "Must be an object";
export const EMPTY_MESSAGE = "Must not be empty: leave the field out instead";

type Branch = { validate: ValidateFunction; zod?: z.core.$ZodType };
type Operation = { pattern: RegExp; method: string; pointer: string; union: number; zod?: z.core.$ZodType; branches?: Branch[] };

let operations: Operation[] | undefined;
let ajv: Ajv2020 | undefined;

/** A JSON pointer as a URI fragment: `~` and `/` escaped in each segment, then percent-encoded (`{id}`). */
const pointer = (segments: string[]) => segments.map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");

function table(): Operation[] {
  if (operations) return operations;
  type Doc = { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { anyOf?: unknown[] } }> } }>> };
  const doc = buildOpenApiDocument() as Doc;
  // As the contract tests read the document: draft 2020-12 (OpenAPI 3.1), every error, formats asserted; the
  // IRI formats ajv-formats lacks are the site's own grammar (app/schemas/iri.ts).
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat("iri-reference", isSiteIri);
  ajv.addSchema(doc, "openapi.json");
  const zods = jsonBodySchemas();
  operations = [];
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}/?$`);
    for (const [method, operation] of Object.entries(item)) {
      const json = operation.requestBody?.content?.["application/json"];
      if (!json) continue;
      operations.push({
        pattern,
        method: method.toUpperCase(),
        pointer: pointer(["paths", template, method, "requestBody", "content", "application/json", "schema"]),
        union: json.schema?.anyOf?.length ?? 0,
        zod: zods.get(`${method.toUpperCase()} ${template}`),
      });
    }
  }
  return operations;
}

/** The operation's request shapes (a union is checked one shape at a time, each with its zod schema), compiled on first use. */
function branchesOf(operation: Operation): Branch[] {
  const compile = (at: string) => ajv!.compile({ $ref: `openapi.json#/${at}` });
  if (!operation.union) return (operation.branches ??= [{ validate: compile(operation.pointer), zod: operation.zod }]);
  const def = (operation.zod as { _zod?: { def?: { type?: string; options?: z.core.$ZodType[] } } } | undefined)?._zod?.def;
  operation.branches ??= Array.from({ length: operation.union }, (_, i) => ({
    validate: compile(`${operation.pointer}/anyOf/${i}`),
    zod: def?.type === "union" ? def.options?.[i] : undefined,
  }));
  return operation.branches;
}

function routePathOf(url: string): string {
  const pathname = new URL(url).pathname;
  try {
    return decodeURIComponent(pathname).toLowerCase();
  } catch {
    return pathname.toLowerCase();
  }
}

/**
 * The fields of a JSON body the document refuses, each with a message (empty: the document takes it, or everything
 * it refuses the shared schema refuses too, in its own words, when the service reads the body).
 */
export function jsonBodyErrors(method: string, url: string, body: Record<string, unknown>): Record<string, string> {
  const path = routePathOf(url);
  const operation = table().find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  if (!operation) return {};
  let nearest: { errors: ErrorObject[]; zod?: z.core.$ZodType } | undefined;
  for (const branch of branchesOf(operation)) {
    if (branch.validate(body)) return {};
    const errors = [...(branch.validate.errors ?? [])];
    if (!nearest || errors.length < nearest.errors.length) nearest = { errors, zod: branch.zod };
  }
  return messages(nearest!.errors, body, nearest!.zod);
}

/** The field an error is about, named as the services name fields: `modes`, `highlights[2]`, `source.utmSource`. */
function fieldOf(error: ErrorObject): (string | number)[] {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  if (error.keyword === "required") segments.push(String((error.params as { missingProperty: string }).missingProperty));
  return segments;
}

function valueAt(body: unknown, segments: (string | number)[]): unknown {
  return segments.reduce<unknown>((node, s) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[s] : undefined), body);
}

/** The message for a value of a JSON type the field does not take (`types`: those it does). */
function typeMessage(value: unknown, types: Set<string>): string {
  if (value === null) return types.size === 1 && types.has("boolean") ? BOOLEAN_MESSAGE : NULL_MESSAGE;
  if (types.has("integer") && typeof value === "number") return INTEGER_MESSAGE;
  if (types.has("boolean")) return BOOLEAN_MESSAGE;
  if (types.has("integer") || types.has("number")) return NUMBER_MESSAGE;
  if (types.has("array")) return LIST_MESSAGE;
  if (types.has("string")) return TEXT_MESSAGE;
  return OBJECT_MESSAGE;
}

function otherMessage(error: ErrorObject, value: unknown): string {
  const params = error.params as Record<string, unknown>;
  if (value === "") return EMPTY_MESSAGE;
  switch (error.keyword) {
    case "required":
      return "Required";
    case "maxItems":
      return `At most ${String(params.limit)} entries`;
    case "minItems":
      return `At least ${String(params.limit)} entries`;
    case "maxLength":
      return `At most ${String(params.limit)} characters`;
    case "minLength":
      return `At least ${String(params.limit)} characters`;
    case "minimum":
      return `Must be at least ${String(params.limit)}`;
    case "maximum":
      return `Must be at most ${String(params.limit)}`;
    case "enum":
      return `Must be one of ${(params.allowedValues as unknown[]).join(", ")}`;
    case "format":
      return `Must be a valid ${String(params.format)}`;
    case "pattern":
      return "Not in the form the API document gives for this field";
    case "not":
      return "Must be left out";
    default:
      return "Not what the API document allows here";
  }
}

/** True when the shared schema's messages name this field, or a part of it, or the list it is in. */
function named(fields: Record<string, string>, field: string): boolean {
  return Object.keys(fields).some(
    (f) => f === field || f.startsWith(`${field}[`) || f.startsWith(`${field}.`) || field.startsWith(`${f}[`) || field.startsWith(`${f}.`),
  );
}

function messages(errors: ErrorObject[], body: unknown, zod: z.core.$ZodType | undefined): Record<string, string> {
  const shared = zod ? sharedMessages(zod, body) : {};
  // Per field: the JSON types some branch of its schema asked for, and whether any branch took the value's type
  // (then it broke another rule: a fee of 0 is a number below the minimum, not "not null").
  const byField = new Map<string, { segments: (string | number)[]; types: Set<string>; other: ErrorObject[] }>();
  for (const error of errors) {
    // anyOf and oneOf report their branches' errors too, which say more.
    if (error.keyword === "anyOf" || error.keyword === "oneOf") continue;
    const segments = fieldOf(error);
    const key = fieldName(segments) || "body";
    const entry = byField.get(key) ?? { segments, types: new Set<string>(), other: [] };
    if (error.keyword === "type") for (const t of [(error.params as { type: string | string[] }).type].flat()) entry.types.add(t);
    else entry.other.push(error);
    byField.set(key, entry);
  }
  const own: Record<string, string> = {};
  for (const [field, { segments, types, other }] of byField) {
    const value = valueAt(body, segments);
    if (!other.length) own[field] = typeMessage(value, types);
    else if (!named(shared, field)) own[field] = otherMessage(other[0], value);
  }
  // Everything the document refuses here the shared schema refuses too: its messages come when the service reads it.
  if (!Object.keys(own).length) return {};
  return { ...shared, ...own };
}

/** The shared schema's message per field for this body (what the service would answer), or none. */
function sharedMessages(schema: z.core.$ZodType, body: unknown): Record<string, string> {
  const result = z.safeParse(schema, body);
  return result.success ? {} : fieldErrors(result.error);
}
