import { endpoint, json, noContent, oneVersioned, requireApiStaff, withIfMatch } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { issueToken } from "~/web/token.server";
import { changePassword, type PasswordChanged } from "~/services/auth.server";
import { deleteUser, getUserForAdmin, updateUser } from "~/services/users.server";
import type { Route } from "./+types/api.users.$id";

/** A fresh token for a caller whose own password just changed (every earlier token of theirs has stopped working). */
const freshToken = (changed: PasswordChanged) => issueToken({ id: changed.user.id, sessionVersion: changed.sessionVersion });

const handle = endpoint({
  async GET(args) {
    return oneVersioned(await getUserForAdmin(await requireApiStaff(args), args.params.id!));
  },
  /**
   * `{ currentPassword, password }` alone is the caller changing their own password (spec §7), which any
   * signed-in user may do, with no version; anything else is an admin editing a user (an empty password keeps the
   * current one), refused with 409 edit_conflict when drawn from an older version (If-Match or `version`).
   */
  async PUT(args) {
    const actor = await requireApiStaff(args);
    const id = args.params.id!;
    const body = await readApiBody(args.request);
    if (body.currentPassword !== undefined && body.name === undefined && body.email === undefined) {
      const newPassword = body.password ?? body.newPassword;
      const changed = await changePassword(actor, id, {
        currentPassword: body.currentPassword,
        newPassword,
        confirmPassword: body.confirmPassword ?? newPassword,
      }).catch(renameField("newPassword", body.newPassword === undefined ? "password" : "newPassword"));
      return json({ data: changed.user, token: await freshToken(changed) }, { headers: { ETag: `"${changed.user.version}"` } });
    }
    const { user, password } = await updateUser(actor, id, withIfMatch(args.request, body));
    const etag = { ETag: `"${user.version}"` };
    return password?.own ? json({ data: user, token: await freshToken(password) }, { headers: etag }) : oneVersioned(user);
  },
  async DELETE(args) {
    await deleteUser(await requireApiStaff(args), args.params.id!);
    return noContent();
  },
});

/** The API's field is `password` (spec §7); the shared schema calls it newPassword. */
function renameField(from: string, to: string) {
  return (error: unknown): never => {
    const fields = (error as { fields?: Record<string, string> }).fields;
    if (from !== to && fields?.[from] !== undefined) {
      fields[to] = fields[from];
      delete fields[from];
    }
    throw error;
  };
}

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
