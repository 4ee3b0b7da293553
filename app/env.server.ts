import { z } from "zod";

const booleanish = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    error: "must be true or false",
  })
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

/** A positive whole number from an environment string, e.g. a rate limit. */
const count = (what: string) =>
  z.coerce.number({ error: `must be ${what}` }).int({ error: `must be ${what}` }).min(1, { error: `must be ${what} of at least 1` }).max(1_000_000);

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
    ADMIN_EMAIL: z.string().regex(/^[^\s@]+@[^\s@]+$/, { error: "must be an e-mail address" }).optional(),
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
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required in production (at least 32 characters)" });
    }
    if (env.SESSION_SECRET !== undefined && env.SESSION_SECRET.length < 32) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "must be at least 32 characters long" });
    }
  });

export type Env = z.infer<typeof schema> & { SESSION_SECRET: string };

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
  return { ...env, SESSION_SECRET: secret };
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= loadEnv();
  return cached;
}
