import { endpoint, oneVersioned, requireApiStaff, withIfMatch } from "~/web/api.server";
import { readApiBody } from "~/web/api-body.server";
import { readSiteSettingsAsAdmin, updateSiteSettings } from "~/services/site-settings.server";
import type { Route } from "./+types/api.settings";

// Admins only, like the screen (/admin/settings): the service refuses anyone else.
const handle = endpoint({
  async GET(args) {
    return oneVersioned(await readSiteSettingsAsAdmin(await requireApiStaff(args)));
  },
  async PUT(args) {
    const actor = await requireApiStaff(args);
    return oneVersioned(await updateSiteSettings(actor, withIfMatch(args.request, await readApiBody(args.request)), { partial: true }));
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
