import * as z from "zod/mini";
import { fieldName } from "~/util/field-name";
import { invalid, type FieldMessages } from "./service-error";

/** The schema's first message per field, named the way forms name them (`highlights[2]`); "body" for the whole input. */
export function fieldErrors(error: z.core.$ZodError): FieldMessages {
  const fields: FieldMessages = {};
  for (const issue of error.issues) fields[fieldName(issue.path) || "body"] ??= issue.message;
  return fields;
}

/** Checks plain input (a form turned into an object, or a JSON body) against a shared schema; throws `invalid` with the spec's messages. */
export function parseInput<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw invalid(fieldErrors(result.error));
  return result.data;
}
