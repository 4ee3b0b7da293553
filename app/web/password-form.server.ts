import type { StaffActor } from "~/services/actor";
import { changePassword } from "~/services/auth.server";
import { PASSWORD_CHANGE_FAILED } from "~/schemas/user";
import { formFailureData } from "./admin-actions.server";
import { formToObject } from "./api-body.server";
import { redirectWithFlash } from "./flash.server";
import { keepSessionAfterPasswordChange } from "./session.server";

export const PASSWORD_UPDATED = "Password updated";

/**
 * The Change Password form's action (spec §2), for the Users screen and the sidebar's own-password page:
 * the service checks and stores; a refusal shows the form again (passwords never echoed back); after your own
 * change this session moves to the new version, so you stay signed in while your other sessions end.
 */
export async function changePasswordAction(request: Request, actor: StaffActor, targetId: string, backTo: string) {
  const form = await request.formData();
  let changed;
  try {
    changed = await changePassword(actor, targetId, formToObject(form));
  } catch (error) {
    return formFailureData(error, form, PASSWORD_CHANGE_FAILED, { hideFields: ["currentPassword", "newPassword", "confirmPassword"], what: "a password" });
  }
  const version = changed.own ? changed.sessionVersion : null;
  return redirectWithFlash(
    request,
    backTo,
    { kind: "notice", message: PASSWORD_UPDATED },
    {
      update: version !== null ? (session) => keepSessionAfterPasswordChange(session, version) : undefined,
    },
  );
}
