import { randomUUID } from "node:crypto";
import type { Route } from "./+types/admin.settings";
import { EditConflictNotice } from "~/components/admin/edit-conflict";
import { PageHeader } from "~/components/admin/page-header";
import { SiteSettingsForm } from "~/components/admin/site-settings-form";
import { requireStaff } from "~/web/actor.server";
import { formFailureData, type FormFailureData } from "~/web/admin-actions.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { SETTINGS_SAVE_FAILED, SETTINGS_SAVED, SITE_SETTING_FIELDS, SITE_SETTING_KEYS } from "~/schemas/site-settings";
import { readSiteSettingsAsAdmin, updateSiteSettings } from "~/services/site-settings.server";

export const meta: Route.MetaFunction = () => [{ title: "Site Settings · Admin" }];

/** After every post, refused ones too: a form refused for a change meanwhile must be drawn again from what is stored now. */
export function shouldRevalidate() {
  return true;
}

const LABELS = Object.fromEntries(SITE_SETTING_KEYS.map((key) => [key, SITE_SETTING_FIELDS[key].label]));

// Admins only, like Users (DESIGN.md §4.2): an editor gets 403; the service checks again.
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  // A fresh key each time the form is drawn: a post of this drawing is applied once.
  return { values: await readSiteSettingsAsAdmin(actor), formKey: randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context }, { role: "admin" });
  const form = await request.formData();
  try {
    await updateSiteSettings(actor, formToObject(form));
  } catch (error) {
    return formFailureData(error, form, SETTINGS_SAVE_FAILED, { what: "the site settings", fields: { labels: LABELS } });
  }
  return redirectWithFlash(request, "/admin/settings", { kind: "notice", message: SETTINGS_SAVED });
}

export default function SiteSettingsScreen({ loaderData, actionData }: Route.ComponentProps) {
  const failure = actionData as FormFailureData | undefined;
  return (
    <>
      <PageHeader title="Site Settings" description="Facts the public pages show. A change is on every page within a second of saving." />
      <div className="max-w-2xl">
        <EditConflictNotice conflict={failure?.conflict} className="mb-4" />
        {/* Keyed by the version: after a refusal the form is drawn again from what the settings hold now. */}
        <SiteSettingsForm key={loaderData.values.version} values={loaderData.values} lastResult={failure?.result} formKey={loaderData.formKey} />
      </div>
    </>
  );
}
