import type { Route } from "./+types/admin.courses.save";
import { staffActorFor } from "~/web/actor.server";
import { submitCourseForm } from "~/web/course-upload.server";
import { flashCookie } from "~/web/flash.server";
import { readUserSession } from "~/web/session.server";
import { SESSION_ENDED_WHILE_EDITING } from "~/web/admin-messages";

/**
 * The course form's save when JavaScript runs: the same save as the form's action, answered in JSON so
 * the page can send it with XMLHttpRequest and show upload progress. `?id=` edits that course.
 */
export async function action({ request, context }: Route.ActionArgs) {
  // JSON, not a redirect: XMLHttpRequest would follow a redirect to the sign-in page silently.
  const check = await readUserSession(request);
  if (!check) {
    // Leaving for the sign-in page would throw away the course being typed: say how to carry on instead.
    return Response.json({ ok: false, result: null, message: SESSION_ENDED_WHILE_EDITING, notice: null }, { status: 401 });
  }
  const id = new URL(request.url).searchParams.get("id");
  const outcome = await submitCourseForm(request, staffActorFor(check.user, context), id);
  if (!outcome.ok) {
    const { status, result, message, notice, conflict } = outcome;
    return Response.json({ ok: false, result, message, notice, conflict }, { status: status === 200 ? 400 : status });
  }
  const cookie = await flashCookie(request, { kind: "notice", message: `Course ${outcome.course.title} saved` });
  return Response.json({ ok: true, id: outcome.course.id }, { headers: { "Set-Cookie": cookie } });
}

export async function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
