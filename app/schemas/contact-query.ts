import * as z from "zod/mini";
import { choice } from "./fields";
import { CONTACT_STATUSES, oneOf } from "./values";

export const contactStatusSchema = z.object({
  status: choice(CONTACT_STATUSES, `Status must be one of ${oneOf(CONTACT_STATUSES)}`),
});
