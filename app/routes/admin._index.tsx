import { redirect } from "react-router";
import { requireStaff } from "~/web/actor.server";
import type { Route } from "./+types/admin._index";

// /admin has no screen of its own (spec §2): it opens the course list.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  return redirect("/admin/courses");
}
