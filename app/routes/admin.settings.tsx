import type { Route } from "./+types/admin.settings";
import { PageHeader } from "~/components/admin/page-header";
import { SiteSettingsForm } from "~/components/admin/site-settings-form";
import { requireStaff } from "~/web/actor.server";
import { formFailureData } from "~/web/admin-actions.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { SETTINGS_SAVE_FAILED, SETTINGS_SAVED } from "~/schemas/site-settings";
import { readSiteSettingsAsAdmin, updateSiteSettings } from "~/services/site-settings.server";

export const meta: Route.MetaFunction = () => [{ title: "Site Settings · Admin" }];

// Admins only, like Users (DESIGN.md §4.2): an editor gets 403; the service checks again.
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  return { values: await readSiteSettingsAsAdmin(actor) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const form = await request.formData();
  try {
    await updateSiteSettings(actor, formToObject(form));
  } catch (error) {
    return formFailureData(error, form, SETTINGS_SAVE_FAILED, { what: "the site settings" });
  }
  return redirectWithFlash(request, "/admin/settings", { kind: "notice", message: SETTINGS_SAVED });
}

export default function SiteSettingsScreen({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Site Settings" description="Facts the public pages show. A change is on every page within a second of saving." />
      <div className="max-w-2xl">
        <SiteSettingsForm values={loaderData.values} lastResult={actionData?.result} />
      </div>
    </>
  );
}
