import { randomBytes } from "node:crypto";
import express, { type NextFunction, type Request, type Response } from "express";
import "react-router";
import { closeDb } from "~db/client.server";
import { env } from "~/env.server";
import { startOutboxWorker, stopOutboxWorker } from "~/infra/outbox-worker.server";
import { startPeriodicJob, stopPeriodicJobs } from "~/infra/periodic-jobs.server";
import { openAndMigrate } from "./startup";
import { PUBLISH_JOB_EVERY_MS, publishDueItems } from "~/services/publication.server";
import { startUploadSweeper, stopUploadSweeper } from "~/infra/upload-sweep.server";
import { tightenDataModes } from "~/util/owner-only-files.server";
import { DIGEST_JOB_EVERY_MS, runDigestJob } from "~/services/digest.server";
import { runWaitlistJob, WAITLIST_JOB_EVERY_MS } from "~/services/waitlist.server";
import { ESCALATION_JOB_EVERY_MS, runEscalationJob } from "~/services/escalation.server";
import { HOUSEKEEPING_EVERY_MS, runHousekeeping } from "~/services/housekeeping.server";
import { BACKUP_JOB_EVERY_MS, backupHealth, runScheduledBackup, stopBackups } from "~/services/backups.server";
import { PRIVACY_JOB_EVERY_MS, runPrivacyJob } from "~/services/privacy-retention.server";
import { INVOICE_JOB_EVERY_MS, runInvoicingJob } from "~/services/invoices.server";
import { RECONCILE_JOB_EVERY_MS, reconcileGatewayOrders } from "~/services/razorpay.server";
import { FEE_REMINDER_JOB_EVERY_MS, runFeeReminderJob } from "~/services/fee-reminders.server";
import { INVOICE_RETENTION_JOB_EVERY_MS, runInvoiceRetention } from "~/services/fee-privacy.server";
import { databaseReachable, inputErrorClass } from "./error-status";
import { csrfGuard } from "./csrf";
import { leadSource } from "./lead-source";
import { lingeringClose } from "./lingering-close";
import { rawMethodResponse } from "./methods";
import { pageCache } from "./page-cache";
import { registerMedia } from "./media";
import { createReactRouterHandler } from "./react-router-handler";
import { sendHttpError } from "./responses";
import { securityHeaders } from "./security";

declare module "react-router" {
  interface AppLoadContext {
    cspNonce: string;
    /** The client's address: X-Forwarded-For is trusted only when TRUST_PROXY says a proxy is in front. */
    clientIp: string;
    /** Matches the X-Request-Id header and the access log line, for logged errors. */
    requestId?: string;
  }
}

export { env, securityHeaders };

/** Opens the database (migrating and seeding as needed), then starts the orphan-upload sweep and the outbox worker. */
export async function initApp(log: (line: string) => void = console.log): Promise<void> {
  if (env().PUBLIC_URL_DEFAULTED) {
    log(
      `Warning: PUBLIC_URL is not set: links in search results and e-mails will point to ${env().PUBLIC_URL}. Set PUBLIC_URL to the site's public address (e.g. https://www.example.in).`,
    );
  }
  // Before the database is opened: an install from before files were owner-only has its files tightened.
  await tightenDataModes(log);
  await openAndMigrate(log);
  startUploadSweeper(log);
  startOutboxWorker(log);
  // Scheduled courses, batches and reviews go public on time, whichever instance gets there first.
  startPeriodicJob({ name: "scheduled-publishing", everyMs: PUBLISH_JOB_EVERY_MS, run: async () => void (await publishDueItems()) }, log);
  // Waitlist offers past their time expire and the seat goes to the next one waiting (app/services/waitlist.server.ts).
  startPeriodicJob({ name: "waitlist-expiry", everyMs: WAITLIST_JOB_EVERY_MS, run: async () => void (await runWaitlistJob()) }, log);
  // New enquiries untouched past the promise: escalated to the admins once (app/services/escalation.server.ts).
  startPeriodicJob({ name: "escalation", everyMs: ESCALATION_JOB_EVERY_MS, run: async () => void (await runEscalationJob()) }, log);
  startPeriodicJob({ name: "housekeeping", everyMs: HOUSEKEEPING_EVERY_MS, run: runHousekeeping }, log);
  // Once a day per staff member, whichever instance gets there first (app/services/digest.server.ts).
  startPeriodicJob({ name: "daily-digest", everyMs: DIGEST_JOB_EVERY_MS, run: async () => void (await runDigestJob()) }, log);
  // An archive every BACKUP_EVERY_HOURS, made by one instance per slot (app/services/backups.server.ts).
  if (env().BACKUP_EVERY_HOURS > 0) {
    startPeriodicJob({ name: "backups", everyMs: BACKUP_JOB_EVERY_MS, run: async () => void (await runScheduledBackup(Date.now(), log)) }, log);
  }
  // Personal data past its retention, and minors' records without a guardian's consent in time, are erased once,
  // whichever instance gets there first (app/services/privacy-retention.server.ts).
  startPeriodicJob({ name: "privacy-retention", everyMs: PRIVACY_JOB_EVERY_MS, run: async () => void (await runPrivacyJob()) }, log);
  // Dues whose date has come get their invoice, numbered in the issuing transaction (app/services/invoices.server.ts).
  startPeriodicJob({ name: "invoicing", everyMs: INVOICE_JOB_EVERY_MS, run: async () => void (await runInvoicingJob()) }, log);
  // Razorpay orders still open after 30 minutes: ask Razorpay, record what it captured (app/services/razorpay.server.ts).
  // Fee reminders around each due date and invoice.overdue, once per due and stage (app/services/fee-reminders.server.ts).
  startPeriodicJob({ name: "fee-reminders", everyMs: FEE_REMINDER_JOB_EVERY_MS, run: async () => void (await runFeeReminderJob()) }, log);
  // Names on invoices and payments past INVOICE_RETENTION_MONTHS after their year's annual return are removed.
  startPeriodicJob({ name: "invoice-retention", everyMs: INVOICE_RETENTION_JOB_EVERY_MS, run: async () => void (await runInvoiceRetention()) }, log);
  startPeriodicJob({ name: "razorpay-reconcile", everyMs: RECONCILE_JOB_EVERY_MS, run: async () => void (await reconcileGatewayOrders()) }, log);
}

export const app = express();
app.disable("x-powered-by");
app.set("trust proxy", trustProxySetting(env().TRUST_PROXY));

function trustProxySetting(value: string): boolean | number | string {
  // Express's own `true` trusts every hop and takes the left-most X-Forwarded-For entry, which the
  // client writes itself; "true" here means the one proxy directly in front.
  if (value === "true") return 1;
  if (value === "false" || value === "") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value; // a list of addresses or subnets, as Express understands it
}

/** Tags each request so a logged error can be matched with the answer the client got. */
export function requestId(_req: Request, res: Response, next: NextFunction) {
  if (!res.locals.requestId) {
    res.locals.requestId = randomBytes(8).toString("hex");
    res.setHeader("X-Request-Id", res.locals.requestId as string);
  }
  next();
}

app.use(lingeringClose);
app.use(requestId);
app.use(securityHeaders);

let draining = false;

/**
 * Called on SIGTERM (server/index.js): from now on /healthz answers 503, so a proxy's health check takes this
 * instance out of rotation while it still answers everything sent to it; the listener closes after the drain time.
 */
export function beginDraining(): void {
  draining = true;
}

app.get("/healthz", async (req, res) => {
  res.set("Cache-Control", "no-store");
  if (draining) return void res.status(503).set("Retry-After", "5").json({ status: "draining" });
  const ok = await databaseReachable(2000);
  if (!ok) return void res.status(503).set("Retry-After", "5").json({ status: "unavailable" });
  if (req.query.deep !== "1") return void res.json({ status: "ok" });
  // For monitoring, not the balancer: also whether the last good backup is older than the schedule allows
  // (503 "degraded" when it is).
  const backups = await backupHealth().catch(() => null);
  const stale = !backups || backups.state === "stale";
  res.status(stale ? 503 : 200).json({
    status: stale ? "degraded" : "ok",
    database: "ok",
    backups: backups
      ? {
          state: backups.state,
          everyHours: backups.everyHours,
          limitHours: backups.limitHours,
          lastGoodAt: backups.lastGood?.at ?? null,
          ageHours: backups.lastGood ? Math.round(backups.lastGood.ageHours * 10) / 10 : null,
          // When, not why: the error text (paths, hosts) is for the dashboard, not a public URL.
          lastFailureAt: backups.lastFailure?.at ?? null,
        }
      : { state: "unknown" },
  });
});

registerMedia(app);
app.use(csrfGuard);
app.use(leadSource);
app.use(pageCache);

app.use(
  createReactRouterHandler({
    build: () => import("virtual:react-router/server-build"),
    getLoadContext(req, res) {
      return {
        cspNonce: res.locals.cspNonce as string,
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        requestId: res.locals.requestId as string,
      };
    },
  }),
);

/** Last stop for errors outside React Router (static files, media, the adapter): a status and no stack trace. */
export function errorHandler(error: unknown, req: Request, res: Response, next: NextFunction) {
  if (res.headersSent) return next(error);
  const input = inputErrorClass(error);
  if (!input) console.error(`[${(res.locals.requestId as string | undefined) ?? "-"}]`, error);
  const cls = input ?? { status: 500, code: "internal_error", message: "Something went wrong on our side. Please try again." };
  sendHttpError(res, cls, req.path);
}
app.use(errorHandler);

/**
 * A raw HTTP answer for what Node hands over as a bare socket: a CONNECT request, or a request line whose
 * method Node's parser does not know. server/index.js writes it and closes the socket (405 with Allow).
 */
export async function rawMethodNotAllowed(method: string, target: string): Promise<string> {
  return rawMethodResponse(await import("virtual:react-router/server-build"), method, target);
}

export async function shutdown(): Promise<void> {
  stopBackups();
  await Promise.all([stopUploadSweeper(), stopOutboxWorker(), stopPeriodicJobs()]);
  await closeDb();
}
