import { Link } from "react-router";
import type { OutboxHealth } from "~/services/outbox.server";

/**
 * The dashboard's warning about e-mail and webhooks: e-mail is not configured (messages wait), or messages
 * failed in the last 24 hours. Admins get a link to the Outbox; editors are told who can look.
 */
export function OutboxBanner({ health, isAdmin }: { health: OutboxHealth | null; isAdmin: boolean }) {
  if (!health) return null;
  const lines: string[] = [];
  if (!health.mailConfigured) {
    const waiting = health.waiting === 1 ? "1 message is" : `${health.waiting} messages are`;
    lines.push(`Staff alerts and acknowledgements are not sent: ${waiting} waiting. Set SMTP_URL and restart the app to send them.`);
  }
  if (health.failedRecently > 0) {
    lines.push(`${health.failedRecently === 1 ? "1 message" : `${health.failedRecently} messages`} could not be delivered in the last 24 hours.`);
  }
  if (!lines.length) return null;
  const failed = health.failedRecently > 0;
  return (
    <section
      aria-labelledby="outbox-banner-heading"
      className={`mb-6 rounded-md border px-4 py-3 text-sm ${failed ? "border-red-300 bg-red-50 text-red-800" : "border-amber-300 bg-amber-50 text-amber-900"}`}
    >
      <h2 id="outbox-banner-heading" className="font-semibold">
        {failed ? "Some messages were not delivered" : "E-mail is not set up"}
      </h2>
      {lines.map((line) => (
        <p key={line} className="mt-1">
          {line}
        </p>
      ))}
      {isAdmin ? (
        <p className="mt-2">
          <Link to={failed ? "/admin/outbox?status=failed" : "/admin/outbox"} className="font-semibold underline underline-offset-2">
            Open the Outbox
          </Link>
        </p>
      ) : (
        <p className="mt-2">An admin can see the messages under Outbox.</p>
      )}
    </section>
  );
}
