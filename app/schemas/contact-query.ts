import * as z from "zod/mini";
import { choice } from "./fields";

export const CONTACT_STATUSES = ["new", "replied", "closed"] as const;
export const contactStatusSchema = z.object({
  status: choice(CONTACT_STATUSES, "Status must be one of new, replied, closed"),
});
