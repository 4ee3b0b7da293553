import { Form } from "react-router";
import type { Route } from "./+types/admin.users_.me.digest";
import { PageHeader } from "~/components/admin/page-header";
import { buttonClass } from "~/components/ui/button";
import { requireStaff } from "~/web/actor.server";
import { formatDate } from "~/util/dates";
import { redirectWithFlash } from "~/web/flash.server";
import { DIGEST_OFF, DIGEST_ON, getDigestSetting, nextDigestDay, setDigestSetting } from "~/services/digest.server";

export const meta: Route.MetaFunction = () => [{ title: "Daily digest e-mail · Admin" }];

/** Any signed-in user's own digest switch (the service lets admins change anyone's; this page is one's own). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const setting = await getDigestSetting(actor, actor.user.id);
  return { ...setting, email: actor.user.email, nextDay: nextDigestDay(setting.sentToday) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const form = await request.formData();
  // An unticked checkbox sends nothing: the form's presence is the "off".
  const on = form.get("dailyDigest") === "on";
  await setDigestSetting(actor, actor.user.id, on);
  return redirectWithFlash(request, "/admin/users/me/digest", { kind: "notice", message: on ? DIGEST_ON : DIGEST_OFF });
}

const hourLabel = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

export default function DigestSettings({ loaderData }: Route.ComponentProps) {
  const { on, hour, email, sentToday, nextDay } = loaderData;
  return (
    <>
      <PageHeader
        title="Daily digest e-mail"
        description="One e-mail a day with your follow-ups, new enquiries waiting for an answer and waitlist offers running out."
      />
      <div className="max-w-xl space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <p className="text-sm text-slate-700">
          From {hourLabel(hour)} Hyderabad time, sent to <strong>{email}</strong>: your overdue follow-ups and those due today, New enquiries waiting more than
          24 hours (yours and unassigned ones) and waitlist offers that expire today, each with a link to the enquiry. On a day with nothing to list, no e-mail
          is sent.
        </p>
        <Form method="post" className="space-y-4">
          <label className="flex items-center gap-3 text-sm font-semibold text-slate-900">
            <input type="checkbox" name="dailyDigest" defaultChecked={on} className="size-5 rounded border-slate-400" />
            Send me the daily digest e-mail
          </label>
          <button type="submit" className={buttonClass("primary")}>
            Save
          </button>
        </Form>
        <p className="text-sm text-slate-600" data-testid="digest-status">
          {on
            ? `${sentToday ? "Today's digest is done. " : ""}The next one comes on ${formatDate(nextDay)} from ${hourLabel(hour)}, if something needs you.`
            : "You get no digest e-mail."}
        </p>
      </div>
    </>
  );
}
