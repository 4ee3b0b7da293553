import { redirect } from "react-router";
import type { Route } from "./+types/admin._index";
import { requireUser } from "~/lib/session.server";

// /admin has no screen of its own (spec §2): it opens the course list.
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return redirect("/admin/courses");
}
