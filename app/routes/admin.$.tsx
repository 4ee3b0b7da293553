import { requireStaff } from "~/web/actor.server";
import type { Route } from "./+types/admin.$";
import { LinkButton } from "~/components/admin/buttons";

export const meta: Route.MetaFunction = () => [{ title: "Page Not Found · Admin" }, { name: "robots", content: "noindex" }];

/**
 * An unknown path under /admin: signed out, it goes to the sign-in page like every admin URL; signed in, it is
 * a 404 inside the admin frame (never the public site's header and footer, spec §2).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export default function AdminNotFound() {
  return null;
}

export function ErrorBoundary() {
  return (
    <>
      <h1 className="mb-2 text-2xl font-bold text-brand-900">Page Not Found</h1>
      <p className="mb-6 text-slate-700">There is no admin screen at this address.</p>
      <LinkButton to="/admin/courses">Back to Courses</LinkButton>
    </>
  );
}
