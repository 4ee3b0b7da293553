import { z } from "zod";
import { SITE } from "~/config/site";
import { parseBackupKeep } from "~/util/backup-keep";
import { parseAddressList, parseMailbox } from "~/util/email-address";

const booleanish = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    error: "must be true or false",
  })
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

/** A positive whole number from an environment string, e.g. a rate limit. */
const count = (what: string) =>
  z.coerce
    .number({ error: `must be ${what}` })
    .int({ error: `must be ${what}` })
    .min(1, { error: `must be ${what} of at least 1` })
    .max(1_000_000);

/** A comma-separated list, empty entries dropped. */
const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A retention period: whole months, 1 to 1200 (a hundred years). */
const months = () =>
  z.coerce
    .number({ error: "must be a whole number of months from 1 to 1200" })
    .int({ error: "must be a whole number of months from 1 to 1200" })
    .min(1, { error: "must be a whole number of months from 1 to 1200" })
    .max(1200, { error: "must be a whole number of months from 1 to 1200" });

const isHttpUrl = (v: string) => URL.canParse(v) && ["http:", "https:"].includes(new URL(v).protocol);
const isSmtpUrl = (v: string) => URL.canParse(v) && ["smtp:", "smtps:"].includes(new URL(v).protocol) && new URL(v).hostname !== "";

/** whsec_<base64> is the Standard Webhooks form of a secret: the bytes are the base64 after the prefix. */
function badWebhookSecret(secret: string): string | null {
  if (secret.length < 32) return "must be at least 32 characters long";
  if (!secret.startsWith("whsec_")) return null;
  const b64 = secret.slice("whsec_".length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return "must be whsec_ followed by base64, or a plain string without the whsec_ prefix";
  if (Buffer.from(b64, "base64").length < 24) return "must hold at least 24 bytes after whsec_";
  return null;
}

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number({ error: "must be a port number" }).int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATABASE_URL: z
      .string()
      .default("file:./data/app.db")
      .refine((v) => v.startsWith("file:") || v.startsWith("mysql://"), {
        message: "must start with file: (SQLite) or mysql:// (MySQL/MariaDB)",
      }),
    UPLOAD_DIR: z.string().min(1).default("./data/uploads"),
    SESSION_SECRET: z.string().optional(),
    // Loose on purpose: local names such as admin@localhost are fine for the first account.
    ADMIN_EMAIL: z
      .string()
      .regex(/^[^\s@]+@[^\s@]+$/, { error: "must be an e-mail address" })
      .optional(),
    ADMIN_PASSWORD: z.string().min(8, { error: "must be at least 8 characters" }).max(128).optional(),
    SEED_DEMO: booleanish.default(true),
    PUBLIC_URL: z.string().url({ error: "must be a URL such as https://example.com" }).default("http://localhost:3000"),
    TRUST_PROXY: z.string().default("false"),
    RATE_LIMIT: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
    FORM_RATE_LIMIT: count("a whole number of submissions").default(10),
    FORM_RATE_WINDOW: count("a whole number of seconds").default(600),
    LOGIN_RATE_LIMIT_IP: count("a whole number of failed sign-ins").default(50),
    LOGIN_RATE_LIMIT_ACCOUNT: count("a whole number of failed sign-ins").default(5),
    LOGIN_RATE_LIMIT_ACCOUNT_TOTAL: count("a whole number of failed sign-ins").default(20),
    LOGIN_BLOCK_SECONDS: count("a whole number of seconds").default(60),
    LOGIN_BLOCK_MAX_SECONDS: count("a whole number of seconds").default(3600),
    // Behind a load balancer: seconds /healthz answers 503 after SIGTERM before the listener closes.
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number({ error: "must be a whole number of seconds" }).int().min(0).max(120).default(0),
    ENQUIRY_ATTACHMENT_QUOTA_MB: count("a whole number of megabytes").default(2048),
    // How long a seat offered from a batch's waitlist is held for the enquirer (app/services/waitlist.server.ts).
    WAITLIST_OFFER_HOURS: z.coerce
      .number({ error: "must be a whole number of hours from 1 to 720" })
      .int({ error: "must be a whole number of hours from 1 to 720" })
      .min(1, { error: "must be a whole number of hours from 1 to 720" })
      .max(720, { error: "must be a whole number of hours from 1 to 720" })
      .default(48),
    // A New enquiry nobody has touched this many hours after it came in is escalated to the admins, once (app/services/escalation.server.ts).
    ESCALATION_HOURS: z.coerce
      .number({ error: "must be a whole number of hours from 1 to 720" })
      .int({ error: "must be a whole number of hours from 1 to 720" })
      .min(1, { error: "must be a whole number of hours from 1 to 720" })
      .max(720, { error: "must be a whole number of hours from 1 to 720" })
      .default(24),
    // Privacy (app/services/privacy-*.server.ts; docs/privacy.md): an enquiry or contact message is erased this many
    // months after its last activity; an enrolled student's enquiry after RETENTION_ENROLLED_MONTHS.
    RETENTION_MONTHS: months().default(24),
    RETENTION_ENROLLED_MONTHS: months().default(60),
    // How long the link to a visitor's own page (/me) in an e-mail works.
    ME_LINK_DAYS: z.coerce
      .number({ error: "must be a whole number of days from 1 to 365" })
      .int({ error: "must be a whole number of days from 1 to 365" })
      .min(1, { error: "must be a whole number of days from 1 to 365" })
      .max(365, { error: "must be a whole number of days from 1 to 365" })
      .default(30),
    // Rendered public pages and anonymous API lists kept in memory (server/page-cache.ts); off in development.
    PAGE_CACHE: z.enum(["on", "off"], { error: "must be on or off" }).optional(),
    PAGE_CACHE_MB: count("a whole number of megabytes").default(32),
    // After an edit or a publish, how long a page of the previous content may still be served while its new copy
    // renders in the background (server/page-cache.ts); 0: every change switches at once (the cache empties).
    PAGE_CACHE_GRACE_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).min(0).max(10, { error: "must be at most 10 seconds" }).default(3),
    // Unset: nothing is sent; e-mails wait in the outbox until the app starts with SMTP_URL set.
    SMTP_URL: z.string().refine(isSmtpUrl, { message: "must be smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465" }).optional(),
    MAIL_FROM: z
      .string()
      .default(`${SITE.name} <no-reply@localhost>`)
      .refine((v) => parseMailbox(v) !== null, { message: "must be one address, such as CyberSOC Academy <no-reply@example.com>" }),
    // Unset: the e-mails of all admin users at the time of the submission.
    NOTIFY_EMAIL: z
      .string()
      .refine((v) => parseAddressList(v) !== null, { message: "must be e-mail addresses separated by commas" })
      .transform((v) => parseAddressList(v)!)
      .optional(),
    WEBHOOK_URL: z
      .string()
      .refine((v) => list(v).length > 0 && list(v).every(isHttpUrl), { message: "must be http(s) URLs separated by commas" })
      .transform(list)
      .optional(),
    WEBHOOK_SECRET: z.string().optional(),
    // The hour (0-23, Hyderabad time) from which each staff member's daily digest goes out (app/services/digest.server.ts).
    DIGEST_HOUR: z.coerce
      .number({ error: "must be a whole hour from 0 to 23" })
      .int({ error: "must be a whole hour from 0 to 23" })
      .min(0, { error: "must be a whole hour from 0 to 23" })
      .max(23, { error: "must be a whole hour from 0 to 23" })
      .default(9),
    // Backups (app/services/backups.server.ts): where archives go, how often the app makes one (0: never, only
    // `npm run backup`), and which are kept (the newest of each of the last N days and M weeks).
    BACKUP_DIR: z.string().min(1).default("./data/backups"),
    // Razorpay (app/infra/razorpay.server.ts): online payments of dues when all three are set; the API's address
    // only changes for tests (a local server that answers as Razorpay does).
    RAZORPAY_KEY_ID: z
      .string()
      .regex(/^rzp_(test|live)_[A-Za-z0-9]+$/, { error: "must be a Razorpay key id such as rzp_test_1DP5mmOlF5G5ag" })
      .optional(),
    RAZORPAY_KEY_SECRET: z.string().min(8, { error: "must be the key secret from Razorpay's dashboard" }).optional(),
    RAZORPAY_WEBHOOK_SECRET: z.string().min(8, { error: "must be the webhook secret set in Razorpay's dashboard (at least 8 characters)" }).optional(),
    RAZORPAY_API_URL: z.string().refine(isHttpUrl, { message: "must be an http(s) URL" }).default("https://api.razorpay.com"),
    // How many months after a financial year's annual return its invoices and payments are kept (GST law: 72; docs/privacy.md).
    INVOICE_RETENTION_MONTHS: months().default(72),
    BACKUP_EVERY_HOURS: z.coerce
      .number({ error: "must be a whole number of hours from 0 (off) to 720" })
      .int({ error: "must be a whole number of hours from 0 (off) to 720" })
      .min(0, { error: "must be a whole number of hours from 0 (off) to 720" })
      .max(720, { error: "must be a whole number of hours from 0 (off) to 720" })
      .default(0),
    BACKUP_KEEP: z
      .string()
      .default("7d,4w")
      .refine((v) => parseBackupKeep(v) !== null, { message: "must say how many daily and weekly archives to keep, such as 7d,4w (or 14d, or 4w)" })
      .transform((v) => parseBackupKeep(v)!),
    // Signs every archive's manifest (HMAC-SHA256): a restore refuses an archive this key did not sign. The
    // operator keeps it apart from the archives (README, "Backups"); app/infra/backup-signature.server.ts.
    BACKUP_KEY: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required in production (at least 32 characters)" });
    }
    if (env.SESSION_SECRET !== undefined && env.SESSION_SECRET.length < 32) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "must be at least 32 characters long" });
    }
    if (env.WEBHOOK_URL && !env.WEBHOOK_SECRET) {
      ctx.addIssue({ code: "custom", path: ["WEBHOOK_SECRET"], message: "is required when WEBHOOK_URL is set (at least 32 characters)" });
    }
    // The server speaks plain HTTP, so an https address means a TLS proxy in front. Unless the app trusts it, every
    // request looks like http: the page forms' origin check (React Router's and ours) sees http where the browser
    // says https and answers each form post 400, and client addresses are the proxy's.
    if (env.PUBLIC_URL.startsWith("https:") && ["false", "0"].includes(env.TRUST_PROXY.trim().toLowerCase())) {
      ctx.addIssue({
        code: "custom",
        path: ["TRUST_PROXY"],
        message:
          "must be set when PUBLIC_URL is https: the server speaks plain HTTP, so a TLS proxy is in front; set TRUST_PROXY=true for one proxy (or a hop count, or the proxies' addresses)",
      });
    }
    if (env.BACKUP_KEY !== undefined && env.BACKUP_KEY.length < 32) {
      ctx.addIssue({ code: "custom", path: ["BACKUP_KEY"], message: "must be at least 32 characters long (for example from openssl rand -base64 48)" });
    }
    if (env.NODE_ENV === "production" && env.BACKUP_EVERY_HOURS > 0 && !env.BACKUP_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["BACKUP_KEY"],
        message:
          "is required in production when BACKUP_EVERY_HOURS is set: every archive is signed with it (at least 32 characters, for example from openssl rand -base64 48; keep a copy apart from the archives)",
      });
    }
    const razorpay = [env.RAZORPAY_KEY_ID, env.RAZORPAY_KEY_SECRET, env.RAZORPAY_WEBHOOK_SECRET].filter((v) => v !== undefined).length;
    if (razorpay > 0 && razorpay < 3) {
      ctx.addIssue({
        code: "custom",
        path: ["RAZORPAY_KEY_ID"],
        message: "RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET must be set together (or none of them)",
      });
    }
    const secretProblem = env.WEBHOOK_SECRET === undefined ? null : badWebhookSecret(env.WEBHOOK_SECRET);
    if (secretProblem) ctx.addIssue({ code: "custom", path: ["WEBHOOK_SECRET"], message: secretProblem });
  });

export type Env = z.infer<typeof schema> & {
  SESSION_SECRET: string;
  /** PUBLIC_URL was not set, so canonical links, the sitemap and e-mail links say http://localhost:3000. */
  PUBLIC_URL_DEFAULTED: boolean;
};

function emptyToUndefined(source: NodeJS.ProcessEnv) {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(source)) out[k] = v === "" ? undefined : v;
  return out;
}

export class EnvError extends Error {
  override name = "EnvError";
}

/** Reads and checks the environment; throws EnvError naming each bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(emptyToUndefined(source));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "environment"}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  // Outside production a missing secret gets a fixed development value so `npm start` just works;
  // production refuses to start without one (checked above).
  const secret = env.SESSION_SECRET ?? "development-only-secret-change-me-0123456789";
  return { ...env, SESSION_SECRET: secret, PUBLIC_URL_DEFAULTED: !source.PUBLIC_URL };
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= loadEnv();
  return cached;
}
