import { Form, Link, useActionData, useNavigation } from "react-router";
import { PageHero } from "~/components/site/page-hero";
import { buttonClass } from "~/components/ui/button";
import { SITE } from "~/config/site";
import { visitorActor } from "~/web/actor.server";
import { formatDate, formatDateTime } from "~/util/dates";
import { publicOrigin } from "~/util/origin.server";
import { seoMeta } from "~/util/seo";
import { acceptOffer, declineOffer, viewOffer, type OfferView } from "~/services/waitlist-offers.server";
import type { Route } from "./+types/_site.waitlist.offer";
import { PERSONAL_HEADERS } from "~/web/personal-headers";

/**
 * The link of a waitlist offer e-mail: GET shows the held seat and asks to confirm; the form's POST accepts (or
 * declines) it. A plain form: it works without JavaScript. The token travels in the query string and a hidden
 * field, never in the path, so the access log (which drops query strings) does not keep it.
 */

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

const seo = () =>
  seoMeta({
    title: "Your waitlist seat",
    description: "Confirm the seat held for you from a batch's waitlist.",
    path: "/waitlist/offer",
    origin: publicOrigin(),
    noindex: true,
  });

// The token is personal: no copy in a shared cache, and no Referer carrying it to another site. `same-origin`, not
// `no-referrer`: under no-referrer the browser posts the Accept/Decline form with `Origin: null`, which the
// cross-site check must refuse, so nobody without JavaScript could take the seat.
export function headers() {
  return PERSONAL_HEADERS;
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, offer: await viewOffer(token), justDone: null as null | "accept" | "decline" | "decline-ask", seo: seo() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  const intent = form.get("intent");
  // Decline asks first ("Give up your seat?"): the first press only shows the question, with or without JavaScript.
  if (intent === "decline-ask") return { token, offer: await viewOffer(token), justDone: "decline-ask" as const };
  if (intent === "decline") return { token, offer: await declineOffer(token), justDone: "decline" as const };
  return { token, offer: await acceptOffer(visitorActor(context), token), justDone: "accept" as const };
}

export default function WaitlistOffer({ loaderData }: Route.ComponentProps) {
  const done = useActionData<typeof action>();
  const { token, offer, justDone } = done ?? loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <main id="main">
      <PageHero title="Your waitlist seat" crumbs={[{ name: "Schedules", to: "/schedules" }, { name: "Waitlist" }]} />
      <div className="mx-auto max-w-2xl px-4 py-14 sm:px-6">
        <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" aria-live="polite">
          <OfferBody offer={offer} token={token} justDone={justDone} busy={busy} />
        </section>
      </div>
    </main>
  );
}

function BatchFacts({ offer }: { offer: OfferView }) {
  if (!offer.batch) return null;
  const b = offer.batch;
  return (
    <dl className="mt-4 grid gap-x-4 gap-y-1 text-sm text-slate-700 sm:grid-cols-[auto_1fr]">
      <dt className="font-semibold">Course</dt>
      <dd>{b.courseName}</dd>
      <dt className="font-semibold">Dates</dt>
      <dd>
        {formatDate(b.startDate)} - {formatDate(b.endDate)}
      </dd>
      <dt className="font-semibold">Time</dt>
      <dd>
        {b.time} · {b.days}
      </dd>
      <dt className="font-semibold">Mode and place</dt>
      <dd>
        {b.mode} · {b.location}
      </dd>
    </dl>
  );
}

type Step = null | "accept" | "decline" | "decline-ask";

function OfferBody({ offer, token, justDone, busy }: { offer: OfferView; token: string; justDone: Step; busy: boolean }) {
  if (offer.state === "accepted") {
    return (
      <>
        <h2 className="text-2xl font-bold text-slate-900">{offer.acceptedNow ? "You are enrolled!" : "This seat is yours"}</h2>
        <p className="mt-3 text-slate-700">{`Your seat in this batch is confirmed, ${offer.fullName}. A counsellor will contact you with the next steps.`}</p>
        <BatchFacts offer={offer} />
        <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm text-slate-700 sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold">Fee</dt>
          <dd data-testid="offer-fee">{offer.fee}</dd>
          <dt className="font-semibold">Your reference</dt>
          <dd data-testid="offer-reference" className="font-mono">
            {offer.reference}
          </dd>
        </dl>
        <a href={`/waitlist/offer.ics?token=${encodeURIComponent(token)}`} download className={buttonClass("outline", "mt-6")}>
          Add to calendar (.ics)
        </a>
      </>
    );
  }
  if (offer.state === "open" && justDone === "decline-ask") {
    return (
      <>
        <h2 className="text-2xl font-bold text-slate-900">Give up your seat?</h2>
        <p className="mt-3 text-slate-700">
          {`${offer.fullName}, if you decline, the seat goes to the next person waiting and you leave this batch's waitlist. This cannot be undone.`}
        </p>
        <BatchFacts offer={offer} />
        <Form method="post" className="mt-6 flex flex-wrap gap-3">
          <input type="hidden" name="token" value={token} />
          <button type="submit" name="intent" value="decline" className={buttonClass("primary")} disabled={busy}>
            Yes, give up my seat
          </button>
          <a href={`/waitlist/offer?token=${encodeURIComponent(token)}`} className={buttonClass("outline")}>
            No, keep my seat
          </a>
        </Form>
      </>
    );
  }
  if (offer.state === "open") {
    return (
      <>
        <h2 className="text-2xl font-bold text-slate-900">A seat is held for you</h2>
        <p className="mt-3 text-slate-700">
          {`${offer.fullName}, a seat has opened in the batch you were waiting for. It is held for you until `}
          <strong>{formatDateTime(offer.expiresAt!)}</strong> (Hyderabad time).
        </p>
        <BatchFacts offer={offer} />
        <Form method="post" className="mt-6 flex flex-wrap gap-3">
          <input type="hidden" name="token" value={token} />
          <button type="submit" name="intent" value="accept" className={buttonClass("primary")} disabled={busy}>
            Accept the seat
          </button>
          <button type="submit" name="intent" value="decline-ask" className={buttonClass("outline")} disabled={busy}>
            Decline
          </button>
        </Form>
      </>
    );
  }
  const message =
    offer.state === "expired"
      ? "This offer has expired: the seat was held until its time ran out and has gone to the next person waiting."
      : offer.state === "declined"
        ? justDone === "decline"
          ? "You have declined the seat. Thank you for letting us know: it goes to the next person waiting."
          : "This offer was declined."
        : offer.state === "withdrawn"
          ? "This offer is no longer open."
          : "This link is not valid. Please check that you opened the whole link from the e-mail.";
  return (
    <>
      <h2 className="text-2xl font-bold text-slate-900">{offer.state === "declined" ? "Seat declined" : "This offer is closed"}</h2>
      <p className="mt-3 text-slate-700">{message}</p>
      <p className="mt-3 text-slate-700">
        Questions? Call us on{" "}
        <a href={SITE.phoneHref} className="font-semibold text-brand-700 underline">
          {SITE.phone}
        </a>{" "}
        or see the{" "}
        <Link to="/schedules" className="font-semibold text-brand-700 underline">
          upcoming batches
        </Link>
        .
      </p>
    </>
  );
}
