import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import { env } from "~/env.server";
import { razorpayCspOrigins } from "~/infra/razorpay.server";

/**
 * Security headers for every response, static files included (server/index.js mounts this before them).
 * Scripts run only with this request's nonce; the map on /contact is the one embed allowed.
 */
const EMBED_ORIGINS = ["https://www.openstreetmap.org"];

/** Browser features the site never uses, switched off so injected content cannot ask for them either. */
const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "payment=()",
  "usb=()",
  "interest-cohort=()",
].join(", ");

/** HSTS only where it means something: a production deployment whose public address is https. */
export function hstsEnabled(): boolean {
  const e = env();
  return e.NODE_ENV === "production" && e.PUBLIC_URL.startsWith("https:");
}

function buildHelmet() {
  const isDev = process.env.NODE_ENV === "development";
  // Razorpay's Checkout and Payment Links, only when it is configured (app/infra/razorpay.server.ts).
  const rzp = razorpayCspOrigins();
  const https = hstsEnabled();
  return helmet({
    // Vite's dev server injects inline scripts and a websocket; the policy applies to built code.
    contentSecurityPolicy: isDev
      ? false
      : {
          useDefaults: false,
          directives: {
            "default-src": ["'self'"],
            "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`, ...rzp.script],
            "script-src-attr": ["'none'"],
            // React style attributes and the syllabus palette spans are inline styles; scripts stay locked down.
            "style-src": ["'self'", "'unsafe-inline'"],
            // Review photos and thumbnails may be links to other https sites.
            "img-src": ["'self'", "data:", "blob:", "https:"],
            "font-src": ["'self'", "data:"],
            "connect-src": ["'self'", ...rzp.connect],
            "media-src": ["'self'"],
            "frame-src": [...EMBED_ORIGINS, ...rzp.frame],
            "child-src": [...EMBED_ORIGINS, ...rzp.frame],
            "worker-src": ["'self'"],
            "manifest-src": ["'self'"],
            "object-src": ["'none'"],
            "base-uri": ["'none'"],
            "form-action": ["'self'", ...rzp.formAction],
            "frame-ancestors": ["'none'"],
            ...(https ? { "upgrade-insecure-requests": [] } : {}),
          },
        },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
  });
}

let helmetMiddleware: ReturnType<typeof buildHelmet> | undefined;

/**
 * Nonce + headers, once per response: server/index.js runs it before the static files and the app runs it
 * again for the dev server, so the second call must not mint a second nonce.
 */
export function securityHeaders(req: Request, res: Response, next: NextFunction) {
  if (res.locals.cspNonce) return next();
  res.locals.cspNonce = randomBytes(16).toString("base64");
  res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
  helmetMiddleware ??= buildHelmet();
  helmetMiddleware(req, res, next);
}
