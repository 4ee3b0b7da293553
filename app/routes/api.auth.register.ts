import { EMAIL_TAKEN, userCreateSchema } from "~/schemas/user";
import { createUser, EmailTakenError } from "~/models/user.server";
import { ApiError, endpoint, one, requireAdmin, validate } from "~/lib/api.server";
import { readBody } from "~/lib/api-body.server";
import type { Route } from "./+types/api.auth.register";

// Staff accounts are made by an admin (DESIGN.md §4.2); there is no self sign-up.
const handle = endpoint({
  async POST({ request }) {
    await requireAdmin(request);
    const values = validate(userCreateSchema, await readBody(request));
    try {
      return one(await createUser(values), 201);
    } catch (error) {
      if (error instanceof EmailTakenError) throw new ApiError(409, "email_taken", EMAIL_TAKEN, { email: EMAIL_TAKEN });
      throw error;
    }
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
