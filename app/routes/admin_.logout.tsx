import { redirect } from "react-router";
import type { Route } from "./+types/admin_.logout";
import { staffActorFor } from "~/web/actor.server";
import { destroySession, endSession, getSession, readUserSession } from "~/web/session.server";
import { signOut } from "~/services/auth.server";

// Logout is a POST only (a link or prefetch must not sign anyone out); a GET just goes to the sign-in page.
export async function loader() {
  return redirect("/admin/login");
}

export async function action({ request, context }: Route.ActionArgs) {
  // Dropping the cookie is not enough: a copied cookie would keep working until it expired, so this session's
  // id is refused from now on. The user's sessions on other devices go on.
  const check = await readUserSession(request);
  if (check) {
    await endSession(check);
    await signOut(staffActorFor(check.user, context), "session");
  }
  const session = await getSession(request);
  return redirect("/admin/login", { headers: { "Set-Cookie": await destroySession(session) } });
}
