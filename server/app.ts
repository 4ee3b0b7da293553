import { randomBytes } from "node:crypto";
import express, { type NextFunction, type Request, type Response } from "express";
import "react-router";
import { closeDb } from "~db/client.server";
import { env } from "~/env.server";
import { initApp as openAndMigrate } from "~/lib/startup.server";
import { startUploadSweeper, stopUploadSweeper } from "~/lib/upload-sweep.server";
import { databaseReachable, inputErrorClass } from "./error-status";
import { registerMedia } from "./media";
import { createReactRouterHandler } from "./react-router-handler";
import { errorResponse } from "./responses";
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

/** Opens the database (migrating and seeding as needed), then starts the orphan-upload sweep. */
export async function initApp(log: (line: string) => void = console.log): Promise<void> {
  await openAndMigrate(log);
  startUploadSweeper(log);
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

app.use(requestId);
app.use(securityHeaders);

app.get("/healthz", async (_req, res) => {
  const ok = await databaseReachable(2000);
  res.set("Cache-Control", "no-store");
  if (ok) res.json({ status: "ok" });
  else res.status(503).set("Retry-After", "5").json({ status: "unavailable" });
});

registerMedia(app);

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
  const response = errorResponse(cls, req.path);
  res.status(response.status);
  response.headers.forEach((value, key) => res.setHeader(key, value));
  void response.text().then((text) => res.end(text));
}
app.use(errorHandler);

export async function shutdown(): Promise<void> {
  await stopUploadSweeper();
  await closeDb();
}
