// Process entry: HTTP server, static files, compression, logging, graceful shutdown.
// The application itself (routes, security headers, database) is server/app.ts, bundled by the build.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import morgan from "morgan";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEV = process.argv.includes("--dev");
const BUILD_DIR = path.resolve(root, process.env.BUILD_DIR || "build");
const BUILD_ENTRY = path.join(BUILD_DIR, "server/index.js");

if (DEV) process.env.NODE_ENV ??= "development";

function newestSourceTime() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of ["app", "db", "server", "public"]) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  for (const file of ["package.json", "vite.config.ts", "react-router.config.ts"]) newest = Math.max(newest, fs.statSync(path.join(root, file)).mtimeMs);
  return newest;
}

/** `npm start` on a fresh clone (or after a pull) builds first, so the quick start is two commands. */
function ensureBuild() {
  if (process.env.SKIP_BUILD_CHECK === "1" && fs.existsSync(BUILD_ENTRY)) return;
  const stale = !fs.existsSync(BUILD_ENTRY) || (fs.existsSync(path.join(root, "app")) && fs.statSync(BUILD_ENTRY).mtimeMs < newestSourceTime());
  if (!stale) return;
  console.log("Building the app (first start or sources changed)...");
  execFileSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], { cwd: root, stdio: "inherit" });
}

/**
 * Plain `npm start` is production-mode React. Outside an explicit NODE_ENV=production deployment, a missing
 * SESSION_SECRET (and, when the app makes backups itself, BACKUP_KEY) is generated once and kept in the data
 * folder, so the quick start needs no configuration; with NODE_ENV=production set by the operator, a missing
 * secret stops the start (app/env.server.ts). `npm run backup` finds the same data/backup-key
 * (app/infra/backup-signature.server.ts).
 */
function prepareProductionEnv() {
  const explicitProduction = process.env.NODE_ENV === "production";
  process.env.NODE_ENV ??= "production";
  if (explicitProduction) return;
  keepGeneratedSecret("SESSION_SECRET", "session-secret");
  if (Number(process.env.BACKUP_EVERY_HOURS) > 0) keepGeneratedSecret("BACKUP_KEY", "backup-key");
}

function keepGeneratedSecret(name, fileName) {
  if (process.env[name]) return;
  const file = path.resolve(root, "data", fileName);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) fs.writeFileSync(file, `${randomBytes(48).toString("base64url")}\n`, { mode: 0o600 });
  process.env[name] = fs.readFileSync(file, "utf8").trim();
  console.log(`${name} is not set: using a generated one kept in data/${fileName}. Set ${name} for a real deployment.`);
}

/**
 * Slow clients cannot hold a connection open: the request line and headers must arrive within
 * HEADERS_TIMEOUT_MS (slowloris), a whole request within REQUEST_TIMEOUT_MS (long enough for a 25 MB
 * upload on a slow line), and a socket that sends nothing for SOCKET_IDLE_MS is closed.
 */
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 300_000;
const SOCKET_IDLE_MS = 30_000;
const KEEP_ALIVE_MS = 5_000;
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  const server = express();
  server.disable("x-powered-by");
  let stopping = false;
  // While shutting down, every answer tells the client not to reuse the connection, so none is cut mid-request.
  server.use((_req, res, next) => {
    if (stopping) res.setHeader("Connection", "close");
    next();
  });
  server.use(compression());
  morgan.token("id", (_req, res) => res.locals?.requestId ?? "-");
  // The path without its query: a query can carry personal data (a staff search for a visitor's name or e-mail).
  morgan.token("path", (req) => {
    const at = req.originalUrl.indexOf("?");
    return at < 0 ? req.originalUrl : `${req.originalUrl.slice(0, at)}?…`;
  });
  server.use(morgan(DEV ? "dev" : ":remote-addr :method :path :status :res[content-length] - :response-time ms :id"));

  let mod;
  let handler;
  if (DEV) {
    const vite = await import("vite");
    const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
    server.use(viteDevServer.middlewares);
    mod = await viteDevServer.ssrLoadModule("./server/app.ts");
    handler = async (req, res, next) => {
      try {
        const source = await viteDevServer.ssrLoadModule("./server/app.ts");
        return source.app(req, res, next);
      } catch (error) {
        if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
        next(error);
      }
    };
  } else {
    ensureBuild();
    prepareProductionEnv();
    mod = await import(BUILD_ENTRY);
    // Static files get the same security headers as pages.
    server.use(mod.requestId, mod.securityHeaders);
    // Hashed file names never change content: cache for a year.
    server.use("/assets", express.static(path.join(BUILD_DIR, "client/assets"), { immutable: true, maxAge: "1y", index: false }));
    // Only a path that ends in a file name can be one of these files: pages and the API skip the disk lookup
    // (an fs.stat on the thread pool, where it would queue behind the compression of other answers).
    const publicFiles = express.static(path.join(BUILD_DIR, "client"), { maxAge: "1h", index: false });
    server.use((req, res, next) => (/\.[^/]+$/.test(req.path) ? publicFiles(req, res, next) : next()));
    handler = mod.app;
  }

  let env;
  try {
    env = mod.env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  await mod.initApp();
  server.use(handler);
  server.use(mod.errorHandler);

  const httpServer = http.createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_MS,
      // How often the two timeouts above are checked; Node's default (30 s) would let a slowloris linger.
      connectionsCheckingInterval: 1_000,
    },
    server,
  );
  httpServer.keepAliveTimeout = KEEP_ALIVE_MS;
  // Methods Node hands over as a bare socket still get an HTTP answer (405 with Allow), never a dropped line:
  // CONNECT (this is no proxy), and a method Node's parser does not know (its default would be a bare 400).
  const answerRaw = (socket, method, target) => {
    if (!socket.writable) return socket.destroy();
    Promise.resolve(mod.rawMethodNotAllowed?.(method, target))
      .then((text) => socket.end(text ?? "HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"))
      .catch(() => socket.destroy());
  };
  httpServer.on("connect", (req, socket) => answerRaw(socket, "CONNECT", req.url ?? "/"));
  httpServer.on("clientError", (error, socket) => {
    const line = /^([A-Za-z][!#$%&'*+.^_`|~0-9A-Za-z-]*) (\S+) HTTP\/1\.[01]\r?\n/.exec(error.rawPacket?.toString("latin1") ?? "");
    if (error.code === "HPE_INVALID_METHOD" && line) return answerRaw(socket, line[1], line[2]);
    // Anything else keeps Node's own answer (400, or 408/431 for slow or oversized headers).
    if (socket.writable)
      socket.end(
        error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"
          : error.code === "HPE_HEADER_OVERFLOW"
            ? "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n"
            : "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
      );
    else socket.destroy();
  });
  httpServer.timeout = SOCKET_IDLE_MS;
  httpServer.listen(env.PORT, env.HOST, () => {
    console.log(`Server listening on http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`);
  });

  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    // Behind a proxy (SHUTDOWN_DRAIN_SECONDS > 0): first fail the health check and keep serving, so the proxy
    // sends new requests elsewhere; then stop listening. Without one there is nobody to tell: close at once.
    const drainMs = signal === "SIGTERM" ? env.SHUTDOWN_DRAIN_SECONDS * 1000 : 0;
    mod.beginDraining?.();
    console.log(`${signal} received: ${drainMs ? `draining for ${drainMs / 1000} s, then ` : ""}finishing in-flight requests, then closing.`);
    setTimeout(() => {
      const force = setTimeout(() => {
        console.error("Shutdown timed out; closing remaining connections.");
        httpServer.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      force.unref();
      // net.Server's close stops accepting without http.Server's closeIdleConnections(): a client may be
      // sending on an idle keep-alive connection at this very moment, and cutting it would reset that request.
      // Open connections end after their next answer (Connection: close) or after KEEP_ALIVE_MS idle.
      net.Server.prototype.close.call(httpServer, async () => {
        try {
          await mod.shutdown();
          console.log("Closed the database; exiting.");
        } finally {
          process.exit();
        }
      });
    }, drainMs);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // A stray rejected promise is a bug to log, not a reason to drop every other request in flight.
  process.on("unhandledRejection", (reason) => console.error("Unhandled rejection:", reason));
  process.on("uncaughtException", (error) => {
    console.error("Uncaught exception; shutting down:", error);
    process.exitCode = 1;
    stop("uncaughtException");
  });
}

// `node server/index.js --build-only` builds when stale and exits (used before starting several test servers at once).
const run = process.argv.includes("--build-only") ? async () => ensureBuild() : main;
run().catch((error) => {
  // A configuration error names the bad variables; print just that, without a stack trace.
  if (error && error.name === "EnvError") console.error(error.message);
  else console.error(error);
  process.exit(1);
});
