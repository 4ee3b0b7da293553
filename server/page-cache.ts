import { createHash } from "node:crypto";
import { constants, crc32, deflateRawSync } from "node:zlib";
import type { NextFunction, Request, Response as ExpressResponse } from "express";
import { LRUCache } from "lru-cache";
import { env } from "~/env.server";
import { siteToday } from "~/util/dates";
import { carriesSessionCookie } from "~/web/session.server";
import { onContentChanged, readContentVersion } from "~/models/content-version.server";
import { onDatabaseUnreachable } from "./error-status";
import { isApiPath } from "./paths";
import { isCacheablePublicPath } from "~/web/public-pages";

/**
 * Rendered public pages and anonymous API reads, kept in memory so a repeat visit costs what a static file does.
 *
 * - Never stale: an entry belongs to a generation, the content version in the database (moved by every write to
 *   courses, batches, seats and reviews) plus today's date in Hyderabad ("upcoming" batches change at midnight).
 *   This process learns of its own writes at their commit; another instance's within POLL_MS.
 * - Never personal: only anonymous GET/HEAD (no session cookie, no Authorization) of the paths below, and only
 *   a 200 that sets no cookie and does not say no-store or private. Flash messages come with a session cookie,
 *   form results with a POST, error pages with another status: none of them is ever stored.
 * - Never reuses a CSP nonce: the page is stored with this request's nonce cut out and each answer gets its own.
 */
const POLL_MS = 250;
const MAX_ENTRY_BYTES = 2 * 1024 * 1024;

const STORED_TYPES = /^(?:text\/html|application\/json|application\/xml|text\/plain|text\/x-script|text\/calendar)\b/;
/** Headers that describe one answer, not the content: never stored. */
const PER_RESPONSE = new Set(["set-cookie", "date", "content-length", "transfer-encoding", "connection", "keep-alive", "etag", "x-request-id"]);

/** `parts`: the body cut at each nonce; `gzipped`: each part compressed once, for answers that take gzip. */
type Entry = { generation: string; status: number; headers: [string, string][]; parts: Buffer[]; gzipped: Buffer[]; etag: string };

export function pageCacheEnabled(): boolean {
  const e = env();
  return (e.PAGE_CACHE ?? (e.NODE_ENV === "development" ? "off" : "on")) === "on";
}

let store: LRUCache<string, Entry> | undefined;
function entries(): LRUCache<string, Entry> {
  store ??= new LRUCache<string, Entry>({
    maxSize: env().PAGE_CACHE_MB * 1024 * 1024,
    maxEntrySize: MAX_ENTRY_BYTES,
    sizeCalculation: (entry) => [...entry.parts, ...entry.gzipped].reduce((n, p) => n + p.length, 0) + 512,
  });
  return store;
}

// The generation this process knows, when it last asked the database, and whether a commit here made it old.
const known = { generation: "", checkedAt: 0, stale: true };
let refreshing: Promise<string> | null = null;
onContentChanged(() => {
  known.stale = true;
});
// Once the server has seen the database away (a health check, a failed page), it asks again before serving
// from the cache, rather than answer from memory for the rest of the poll interval: 503, not a page it cannot vouch for.
onDatabaseUnreachable(() => {
  known.stale = true;
});

async function currentGeneration(): Promise<string> {
  if (!known.stale && Date.now() - known.checkedAt < POLL_MS) return known.generation;
  refreshing ??= (async () => {
    try {
      known.stale = false;
      const checkedAt = Date.now();
      const generation = `${await readContentVersion()}:${siteToday()}`;
      if (generation !== known.generation) entries().clear();
      Object.assign(known, { generation, checkedAt });
      return generation;
    } catch (error) {
      known.stale = true;
      throw error;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function anonymous(req: Request): boolean {
  if (req.headers.authorization) return false;
  return !carriesSessionCookie(req.headers.cookie);
}

type Pending = { key: string; generation: string; nonce: string };
const PENDING = "pageCachePending";

/** Express middleware: answers from the cache, or marks the request so storeInPageCache() keeps its answer. */
export async function pageCache(req: Request, res: ExpressResponse, next: NextFunction) {
  if ((req.method !== "GET" && req.method !== "HEAD") || !pageCacheEnabled() || !isCacheablePublicPath(req.path) || !anonymous(req)) return next();
  let generation: string;
  try {
    generation = await currentGeneration();
  } catch {
    return next(); // the database is away: the page's own loader answers (503)
  }
  const key = `${req.hostname} ${req.originalUrl}`;
  const hit = entries().get(key);
  if (hit && hit.generation === generation) {
    res.setHeader("X-Page-Cache", "hit");
    return void serve(req, res, hit);
  }
  res.locals[PENDING] = { key, generation, nonce: res.locals.cspNonce as string } satisfies Pending;
  res.setHeader("X-Page-Cache", "miss");
  next();
}

/**
 * Called by the React Router adapter with the answer of a request pageCache() marked: keeps it when it may be
 * kept, and answers (with ETag, or 304) from what was kept. Returns false when the caller should send the
 * response itself.
 */
export async function storeInPageCache(req: Request, res: ExpressResponse, response: Response): Promise<boolean> {
  const pending = res.locals[PENDING] as Pending | undefined;
  if (!pending || req.method !== "GET" || !storable(response, isApiPath(req.path))) return false;
  const body = Buffer.from(await response.arrayBuffer());
  const entry: Entry = {
    generation: pending.generation,
    status: response.status,
    headers: [...response.headers].filter(([name]) => !PER_RESPONSE.has(name)),
    parts: [],
    gzipped: [],
    etag: `W/"${createHash("sha256").update(body.toString("latin1").replaceAll(pending.nonce, "")).digest("base64url").slice(0, 27)}"`,
  };
  entry.parts = splitOn(body, pending.nonce);
  entry.gzipped = entry.parts.map(deflatePart);
  if (!entry.headers.some(([name]) => name === "cache-control")) entry.headers.push(["cache-control", "private, no-cache"]);
  // A page built while this process learnt of a newer version is served this once, never kept.
  if (pending.generation === known.generation && body.length <= MAX_ENTRY_BYTES) entries().set(pending.key, entry);
  serve(req, res, entry);
  return true;
}

/**
 * A 200 that sets no cookie. A page saying no-store or private is personal; the API says no-store on every
 * answer (browsers must not share them), and its anonymous reads of the public lists are the same for everyone.
 */
function storable(response: Response, api: boolean): boolean {
  if (response.status !== 200 || response.headers.has("set-cookie") || !response.body) return false;
  if (!api && /no-store|private/.test(response.headers.get("cache-control") ?? "")) return false;
  return STORED_TYPES.test(response.headers.get("content-type") ?? "");
}

function splitOn(body: Buffer, nonce: string): Buffer[] {
  const parts: Buffer[] = [];
  const needle = Buffer.from(nonce);
  let from = 0;
  for (let at = nonce ? body.indexOf(needle, from) : -1; at !== -1; at = body.indexOf(needle, from)) {
    parts.push(body.subarray(from, at));
    from = at + needle.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

/**
 * A kept page is compressed once, not on every answer: each part between two nonces is a run of deflate blocks
 * ending on a byte boundary (a sync flush), and each answer's nonce goes between them as a stored block. Together
 * with a gzip header, a final empty block and the CRC of this answer's bytes that is a valid gzip stream
 * (RFC 1951 §3.2.4, RFC 1952), and the compression middleware leaves an answer that is already encoded alone.
 */
function deflatePart(part: Buffer): Buffer {
  return deflateRawSync(part, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
const FINAL_EMPTY_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);

function storedBlock(bytes: Buffer): Buffer {
  const head = Buffer.from([0, bytes.length & 0xff, bytes.length >> 8, ~bytes.length & 0xff, (~bytes.length >> 8) & 0xff]);
  return Buffer.concat([head, bytes]);
}

function gzipAnswer(entry: Entry, nonce: Buffer): Buffer {
  const chunks: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  entry.parts.forEach((part, i) => {
    if (i > 0) {
      chunks.push(storedBlock(nonce));
      crc = crc32(nonce, crc);
      size += nonce.length;
    }
    chunks.push(entry.gzipped[i]);
    crc = crc32(part, crc);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  chunks.push(FINAL_EMPTY_BLOCK, trailer);
  return Buffer.concat(chunks);
}

function serve(req: Request, res: ExpressResponse, entry: Entry) {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("ETag", entry.etag);
  res.setHeader("Vary", "Accept-Encoding");
  if (req.headers["if-none-match"]?.split(/\s*,\s*/).includes(entry.etag)) {
    // The browser keeps the page it has and the policy that came with it: a new nonce here would block its scripts.
    res.removeHeader("Content-Security-Policy");
    res.removeHeader("Content-Type");
    return void res.status(304).end();
  }
  res.status(entry.status);
  const nonce = Buffer.from(res.locals.cspNonce as string);
  const gzip = req.acceptsEncodings("gzip") === "gzip";
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  if (req.method === "HEAD") return void res.end();
  if (gzip) return void res.end(gzipAnswer(entry, nonce));
  const chunks: Buffer[] = [];
  entry.parts.forEach((part, i) => (i === 0 ? chunks.push(part) : chunks.push(nonce, part)));
  res.end(Buffer.concat(chunks));
}
