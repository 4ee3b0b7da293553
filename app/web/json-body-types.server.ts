import { buildOpenApiDocument } from "./openapi.server";

/**
 * JSON bodies held to the types the OpenAPI document promises, before the shared schemas read them. Those schemas
 * also read HTML forms, where a ticked checkbox is "on" and an empty field is missing, so on their own they would
 * take `"on"`, `"yes"` or `1` for a JSON boolean, `"5"` for a number and `null` for a text. A JSON client gets
 * exactly the document: a boolean is `true` or `false`, a number a JSON number, and `null` only where the document
 * says the field is nullable, and an integer is a whole number (`"seats": 1.5` is refused, not cut to 1).
 */
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
};
type Operation = { pattern: RegExp; method: string; schema: JsonSchema };

export const BOOLEAN_MESSAGE = "Must be true or false";
export const NULL_MESSAGE = "Must not be null";
export const NUMBER_MESSAGE = "Must be a number";
export const INTEGER_MESSAGE = "Must be a whole number";

let operations: Operation[] | undefined;
let components: Record<string, JsonSchema> = {};

function table(): Operation[] {
  if (operations) return operations;
  const doc = buildOpenApiDocument() as {
    paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
    components?: { schemas?: Record<string, JsonSchema> };
  };
  components = doc.components?.schemas ?? {};
  operations = [];
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}/?$`);
    for (const [method, operation] of Object.entries(item)) {
      const schema = operation.requestBody?.content?.["application/json"]?.schema;
      if (schema) operations.push({ pattern, method: method.toUpperCase(), schema });
    }
  }
  return operations;
}

function resolve(schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  return components[schema.$ref.replace("#/components/schemas/", "")] ?? {};
}

/** Every alternative of a schema (a union of request shapes, a nullable field), references followed. */
function alternatives(schema: JsonSchema): JsonSchema[] {
  const s = resolve(schema);
  const union = s.anyOf ?? s.oneOf;
  return union ? union.flatMap(alternatives) : [s];
}

/** The JSON types a schema allows, or null when it says nothing about types. */
function typesOf(schema: JsonSchema): Set<string> | null {
  const types = new Set<string>();
  for (const alt of alternatives(schema)) {
    if (alt.type === undefined) return null;
    for (const t of [alt.type].flat()) types.add(t);
  }
  return types;
}

function propertiesOf(schema: JsonSchema): Map<string, JsonSchema> {
  const props = new Map<string, JsonSchema>();
  for (const alt of alternatives(schema)) for (const [name, prop] of Object.entries(alt.properties ?? {})) if (!props.has(name)) props.set(name, prop);
  return props;
}

function check(body: Record<string, unknown>, schema: JsonSchema, prefix: string, errors: Record<string, string>): void {
  for (const [name, prop] of propertiesOf(schema)) {
    if (!(name in body)) continue;
    const value = body[name];
    const field = `${prefix}${name}`;
    const types = typesOf(prop);
    if (!types) continue;
    if (value === null) {
      if (!types.has("null")) errors[field] = types.has("boolean") && types.size === 1 ? BOOLEAN_MESSAGE : NULL_MESSAGE;
    } else if (types.has("boolean") && !types.has("string") && typeof value !== "boolean") {
      errors[field] = BOOLEAN_MESSAGE;
    } else if ((types.has("integer") || types.has("number")) && !types.has("string") && typeof value !== "number") {
      errors[field] = NUMBER_MESSAGE;
    } else if (types.has("integer") && !types.has("number") && typeof value === "number" && !Number.isInteger(value)) {
      // The forms' reading would cut 1.5 seats to 1 without a word; a JSON client said 1.5 and hears why not.
      errors[field] = INTEGER_MESSAGE;
    } else if (types.has("object") && typeof value === "object" && !Array.isArray(value)) {
      check(value as Record<string, unknown>, prop, `${field}.`, errors);
    }
  }
}

function routePathOf(url: string): string {
  const pathname = new URL(url).pathname;
  try {
    return decodeURIComponent(pathname).toLowerCase();
  } catch {
    return pathname.toLowerCase();
  }
}

/** The fields of a JSON body whose type the document does not allow, with a message each (empty: none). */
export function jsonTypeErrors(method: string, url: string, body: Record<string, unknown>): Record<string, string> {
  const path = routePathOf(url);
  const operation = table().find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  const errors: Record<string, string> = {};
  if (operation) check(body, operation.schema, "", errors);
  return errors;
}
