import { data, redirect, useActionData } from "react-router";
import { MePage, type MeActionResult } from "~/components/site/me-page";
import { PageHero } from "~/components/site/page-hero";
import { RATE_LIMIT_MESSAGE } from "~/infra/rate-limit.server";
import { isServiceError } from "~/services/service-error";
import { correctMyDetails, eraseMe, openMeLink, requestMeLink, setMyMarketing, setMyWhatsapp, viewMe, type MeView } from "~/services/privacy-me.server";
import { ME_LINK_EXPIRED } from "~/schemas/privacy-messages";
import { seoMeta } from "~/util/seo";
import { publicOrigin } from "~/util/origin.server";
import { visitorActor } from "~/web/actor.server";
import { formToObject } from "~/web/api-body.server";
import type { Route } from "./+types/_site.me";
import { PERSONAL_HEADERS } from "~/web/personal-headers";
import { endMeAccess, grantMeAccess, meAccessOf } from "~/web/me-access.server";
import { MeFees } from "~/components/site/me-fees";
import { feesOfMyEnquiries } from "~/services/fee-me.server";

/**
 * A visitor's own page (DPDP Act: access, correction, erasure, withdrawal of consent), opened by the link in every
 * e-mail to them (/me?token=…). The token is exchanged at once for a short-lived cookie scoped to /me and the page
 * redirects to a clean /me (app/web/me-access.server.ts), so the token is in no address bar, history or Referer.
 * Everything is a plain form: it works without JavaScript. Personal, so never kept by any cache (no-store; not a
 * page the page cache keeps), never indexed (noindex), never in the sitemap.
 */

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

export function headers() {
  return PERSONAL_HEADERS;
}

const seo = () =>
  seoMeta({
    title: "Your enquiries",
    description: "See your enquiries and their status, correct your details, download or erase your data.",
    path: "/me",
    origin: publicOrigin(),
    noindex: true,
  });

type PageView = MeView | { state: "none" } | { state: "limited" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const actor = visitorActor(context);
  try {
    if (token !== null) {
      const opened = await openMeLink(actor, token);
      if (opened.state === "ok") throw redirect("/me", { headers: { ...PERSONAL_HEADERS, "Set-Cookie": await grantMeAccess(opened.linkId) } });
      return { view: opened as PageView, fees: null, seo: seo() };
    }
    const access = await meAccessOf(request);
    const view = (access ? await viewMe(actor, access) : { state: "none" }) as PageView;
    // The person's fees (issue 38), from the enquiries the link opens (held ones never).
    const fees = view.state === "ok" ? await feesOfMyEnquiries(view.enquiries.filter((e) => !e.held).map((e) => e.id)) : null;
    return { view, fees, seo: seo() };
  } catch (error) {
    if (!isServiceError(error, "tooMany")) throw error;
    return data(
      { view: { state: "limited" } as PageView, fees: null, seo: seo() },
      { status: 429, headers: { "Retry-After": String(error.retryAfter ?? 60) } },
    );
  }
}

/** Each form says what it is for (intent); the answer comes back as this page's action data. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const actor = visitorActor(context);
  const intent = String(form.get("intent") ?? "");
  const input = formToObject(form);
  const answer = (result: MeActionResult, status = 200, headers?: HeadersInit) => data(result, { status, headers });
  // The person's own actions need the cookie their link gave; an hour after opening it, they open it again.
  const access = await meAccessOf(request);
  if (intent !== "send-link" && !access) return answer({ intent, formError: ME_LINK_EXPIRED }, 400);
  try {
    switch (intent) {
      case "send-link":
        await requestMeLink(actor, input);
        return answer({ intent: "send-link", sent: true });
      case "marketing": {
        const on = form.get("marketing") === "give";
        await setMyMarketing(actor, access!, on);
        return answer({
          intent,
          done: on
            ? "Thank you: we may now send you newsletters and offers. You can stop them here at any time."
            : "Done: we will send you no more newsletters, offers or promotions. Replies about your enquiries still come.",
        });
      }
      case "whatsapp": {
        const on = form.get("whatsapp") === "on";
        await setMyWhatsapp(actor, access!, on);
        return answer({
          intent,
          done: on
            ? "Done: we will send you batch updates about your enquiries on WhatsApp. You can turn them off here at any time."
            : "Done: we will send you no more WhatsApp updates. E-mails and calls about your enquiries still come.",
        });
      }
      case "correct":
        await correctMyDetails(actor, access!, input);
        return answer({ intent, done: "Thank you: your details are corrected on every enquiry and message." });
      case "erase": {
        const result = await eraseMe(actor, access!, input);
        return answer({ intent, erased: result.enquiries.length + result.contactQueries.length }, 200, { "Set-Cookie": await endMeAccess() });
      }
      default:
        return answer({ intent: "unknown", formError: "Please use one of the buttons on this page." }, 400);
    }
  } catch (error) {
    if (isServiceError(error, "tooMany"))
      return answer({ intent, formError: RATE_LIMIT_MESSAGE, sent: false }, 429, { "Retry-After": String(error.retryAfter ?? 60) });
    if (isServiceError(error, "invalid")) {
      const fields = error.fields;
      if (intent === "send-link")
        return answer({ intent: "send-link", sent: false, error: fields.email ?? error.message, email: String(form.get("email") ?? "").slice(0, 254) }, 400);
      return answer({ intent, fields, formError: fields.token }, 400);
    }
    throw error;
  }
}

export default function Me({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>() as MeActionResult | undefined;
  return (
    <main id="main">
      <PageHero
        title="Your enquiries"
        crumbs={[{ name: "Your enquiries" }]}
        intro="Your enquiries and messages with us, and your data: see it, correct it, download it or erase it."
      />
      <div className="mx-auto max-w-4xl px-4 py-14 sm:px-6">
        <MePage view={loaderData.view} result={result} />
        {loaderData.fees ? (
          <div className="mt-8">
            <MeFees fees={loaderData.fees} />
          </div>
        ) : null}
      </div>
    </main>
  );
}
