import * as z from "zod/mini";
import { cleanThenBlank, preprocess } from "./fields";
import { isSiteIri } from "./iri";

/**
 * URL fields (a review's image, LinkedIn profile and video thumbnail): apart from fields.ts, so the IRI grammar stays
 * in the staff screens' code and out of the public forms' (which share fields.ts and check no URL).
 */

/**
 * The start of what the site takes as a URL: a path on this site ("/images/a.png", not "//host") or an http(s) IRI
 * with a host. With `format: iri-reference` it is what the document says; the rest of the grammar is isSiteIri's.
 */
const SAFE_URL_START = /^(?:\/(?!\/)|[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/?#])/;
const URL_DESCRIPTION =
  "An http(s) IRI or a path on this site starting with a single /, by RFC 3987's grammar (iri-reference): non-ASCII text is taken and answered as sent, anything else that is not allowed in an IRI (a space, <, >, a % without two hex digits) is a 400";

function urlChecks(label: string) {
  const message = `${label} must be a valid URL`;
  return [
    z.trim(),
    z.maxLength(500, `${label} must be at most 500 characters`),
    z.regex(SAFE_URL_START, message),
    z.refine<string>(isSiteIri, { message }),
    z.meta({ format: "iri-reference", description: URL_DESCRIPTION }),
  ] as const;
}

/** An optional http(s) URL or a site path such as /images/a.png. */
export function optionalUrl(label: string) {
  return preprocess(cleanThenBlank(false), z.optional(z.string({ error: `${label} must be text` }).check(...urlChecks(label))));
}

export function requiredUrl(requiredMessage: string, label: string) {
  return preprocess(cleanThenBlank(false), z.string({ error: requiredMessage }).check(z.minLength(1, requiredMessage), ...urlChecks(label)));
}
