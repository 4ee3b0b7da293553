import * as z from "zod/mini";
import { blankToUndefined, preprocess } from "./fields";
import { oneOf, PUBLICATION_STATES, type PublicationState } from "./values";

/**
 * The Publication fieldset of the course, batch and review forms, and the API's `state` and `publishAt`.
 * Omitted state: published on create, unchanged on update. publishAt is read by the service (Hyderabad time
 * or an ISO instant with offset) and must lie in the future when the state is scheduled.
 */
export const PUBLISH_AT_MESSAGE = "Choose when to publish, in the future";
export const STATE_MESSAGE = `Publication must be one of ${oneOf(PUBLICATION_STATES)}`;

/** The admin lists' ?state= filter: one of the states, or undefined for all. */
export function readStateFilter(url: URL): PublicationState | undefined {
  const raw = url.searchParams.get("state") ?? "";
  return PUBLICATION_STATES.find((s) => s === raw);
}

export const publicationFields = {
  state: preprocess(
    blankToUndefined,
    z.optional(
      z
        .enum(PUBLICATION_STATES, { error: STATE_MESSAGE })
        .check(z.describe("draft, scheduled (public from publishAt) or published; omitted: published on create, unchanged on update")),
    ),
  ),
  publishAt: preprocess(
    (v) => (v === "" ? null : v),
    z.nullable(
      z.optional(
        z
          .string({ error: PUBLISH_AT_MESSAGE })
          .check(
            z.trim(),
            z.maxLength(40, PUBLISH_AT_MESSAGE),
            z.describe(
              "When a scheduled record becomes public: ISO 8601 with offset, or YYYY-MM-DDTHH:mm in Hyderabad time (IST). Required and in the future when state is scheduled.",
            ),
          ),
      ),
    ),
  ),
};
