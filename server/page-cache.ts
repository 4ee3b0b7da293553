import { createHash, randomBytes } from "node:crypto";
import { constants, crc32, deflateRawSync } from "node:zlib";
import type { NextFunction, Request, Response as ExpressResponse } from "express";
import { LRUCache } from "lru-cache";
import { env } from "~/env.server";
import { siteToday } from "~/util/dates";
import { carriesSessionCookie } from "~/web/session.server";
import { onContentChanged, readContentState } from "~/models/content-version.server";
import { onDatabaseUnreachable } from "./error-status";
import { isApiPath, routePath } from "./paths";
import { COURSE_PAGE_PREFIX, isCacheablePublicPath, ownAddresses, PUBLIC_PAGES } from "~/web/public-pages";

/**
 * Rendered public pages and anonymous API reads, kept in memory so a repeat visit costs what a static file does.
 *
 * - Never stale for long: an entry belongs to a generation, the content version in the database (moved by every
 *   write to courses, batches, seats, reviews and the site settings) plus today's date in Hyderabad ("upcoming"
 *   batches change at midnight). This process learns of its own writes at their commit; another instance's
 *   within POLL_MS.
 * - The API reads at once: an anonymous API answer is served only under the current generation, never a
 *   previous copy, so a read after an acknowledged write shows it (on this instance from the commit on, a version
 *   read begun before it not trusted; on the others from their next look at the version).
 * - Warm before switching, for HTML pages (as Varnish's grace mode does): after an edit, a publish, an approval or
 *   a seat taken (contentChanged({ switch: "after-warming" })), this process renders the pages it kept for the new
 *   generation in the background, one at a time (a render holds the event loop; two at once would not finish
 *   sooner), each when no request is in flight (for half the grace time at most), those visitors ask for first;
 *   and serves each page's previous copy (X-Page-Cache: stale) until its new one is ready, for
 *   PAGE_CACHE_GRACE_SECONDS at most. So a burst of visitors right after a change is answered from memory, and the
 *   renders fill the gaps after it. Each instance warms its own memory.
 *   But the changed records' own addresses (a course's page, a batch's calendar file: contentChanged's `touched`)
 *   switch at once on the instance that made the change, as RFC 9111 §4.4 asks of a cache after an unsafe request:
 *   their kept copies are dropped at the commit, and a copy rendered before it is never kept.
 *   After an unpublish, a delete or an erasure (the content version's atOnceVersion moved past the version the
 *   kept pages were built under), nothing from before is served again: the cache empties at once.
 * - Never personal: only anonymous GET/HEAD (no session cookie, no Authorization) of the paths below, and only
 *   a 200 that sets no cookie and does not say no-store or private. Flash messages come with a session cookie,
 *   form results with a POST, error pages with another status: none of them is ever stored. The background
 *   renders are anonymous GETs of addresses an anonymous visitor's answer was kept for, with no headers at all.
 * - Never reuses a CSP nonce: the page is stored with this request's nonce cut out and each answer gets its own.
 */
const POLL_MS = 250;
const MAX_ENTRY_BYTES = 2 * 1024 * 1024;
/** Addresses warmed per change: those asked for since, then the listed public pages, then the most recently used. */
const WARM_LIMIT = 100;
/** While requests are in flight, a background render waits for a quiet moment, up to this share of the grace time. */
const WAIT_FOR_QUIET_SHARE = 0.5;

const STORED_TYPES = /^(?:text\/html|application\/json|application\/xml|text\/plain|text\/x-script|text\/calendar)\b/;
/** Headers that describe one answer, not the content: never stored. */
const PER_RESPONSE = new Set(["set-cookie", "date", "content-length", "transfer-encoding", "connection", "keep-alive", "etag", "x-request-id"]);

/**
 * `parts`: the body cut at each nonce; `gzipped`: each part compressed once, for answers that take gzip;
 * `href`: the address it was rendered for, to render it again for a new generation.
 */
type Entry = { generation: string; status: number; headers: [string, string][]; parts: Buffer[]; gzipped: Buffer[]; etag: string; href: string };

export function pageCacheEnabled(): boolean {
  const e = env();
  return (e.PAGE_CACHE ?? (e.NODE_ENV === "development" ? "off" : "on")) === "on";
}

// Keyed by generation and address: during a switch a page's previous copy and its new one live side by side.
let store: LRUCache<string, Entry> | undefined;
function entries(): LRUCache<string, Entry> {
  store ??= new LRUCache<string, Entry>({
    maxSize: env().PAGE_CACHE_MB * 1024 * 1024,
    maxEntrySize: MAX_ENTRY_BYTES,
    sizeCalculation: (entry) => [...entry.parts, ...entry.gzipped].reduce((n, p) => n + p.length, 0) + 512,
  });
  return store;
}
const slot = (generation: string, key: string) => `${generation}\n${key}`;
const generationOf = (stored: string) => stored.slice(0, stored.indexOf("\n"));
const keyOf = (stored: string) => stored.slice(stored.indexOf("\n") + 1);

/**
 * Content changes committed by this process so far. A version read begun before the latest one may not have seen
 * it, and a page rendered before it may show what it changed: neither is trusted.
 */
let commits = 0;
// The generation this process knows (and its content version), when it last asked the database, how many commits
// this process had made when that read began, and whether something else (another instance's change seen by
// another cache, the database away) made it old.
const known = { generation: "", version: -1, checkedAt: 0, commits: -1, stale: true };
/** The version read in progress, and how many commits this process had made when it began. */
let refreshing: { commitsBefore: number; generation: Promise<string> } | null = null;
/** Earlier generations whose copies may still be served while the current one warms, newest first, each until its time. */
let previous: { generation: string; until: number }[] = [];
/**
 * The background renders for the current generation: `queue` of [key, href], those asked for moved to the front;
 * `quietBy`: when renders stop waiting for a quiet moment; `cancelled` once another generation replaces it.
 */
type Warming = { generation: string; queue: [string, string][]; quietBy: number; cancelled: boolean };
let warming: Warming | null = null;
/** Requests in this process's app that have not finished: a background render waits until there are none. */
let inFlight = 0;
let lastRequestAt = 0;
/** Quiet: nothing in flight and nothing begun for this long (a burst's next request is usually nearer). */
const QUIET_MS = 10;

onContentChanged((change) => {
  if (!change.committedHere) {
    known.stale = true;
    return;
  }
  commits++;
  forget(change.touched.flatMap(ownAddresses));
});
// Once the server has seen the database away (a health check, a failed page), it asks again before serving
// from the cache, rather than answer from memory for the rest of the poll interval: 503, not a page it cannot vouch for.
onDatabaseUnreachable(() => {
  known.stale = true;
});

async function currentGeneration(): Promise<string> {
  for (;;) {
    if (!known.stale && known.commits === commits && Date.now() - known.checkedAt < POLL_MS) return known.generation;
    refreshing ??= readGeneration();
    const { commitsBefore, generation } = refreshing;
    const current = await generation;
    // Nothing committed here since that read began: it has seen every write this process acknowledged. Otherwise
    // (a read that was under way at a commit) read again.
    if (commitsBefore === commits) return current;
  }
}

function readGeneration(): NonNullable<typeof refreshing> {
  known.stale = false;
  const started = { commitsBefore: commits, generation: Promise.resolve("") };
  started.generation = (async () => {
    try {
      const checkedAt = Date.now();
      const { version, atOnceVersion } = await readContentState();
      const generation = `${version}:${siteToday()}`;
      if (generation !== known.generation) moveTo(generation, version, atOnceVersion);
      else if (previous.some((p) => p.until <= checkedAt)) retire((p) => p.until > checkedAt);
      known.checkedAt = checkedAt;
      known.commits = started.commitsBefore;
      return generation;
    } catch (error) {
      known.stale = true;
      throw error;
    } finally {
      if (refreshing === started) refreshing = null;
    }
  })();
  return started;
}

/** A new generation: switch at once, or keep the previous copies for a few seconds while the new ones render. */
function moveTo(generation: string, version: number, atOnceVersion: number) {
  const before = known.generation;
  // The first look, a change that removes something (or personal data), a database restored to an older
  // version, or grace turned off: nothing from before is served again.
  const atOnce = before === "" || atOnceVersion > known.version || version < known.version || graceMs() === 0;
  Object.assign(known, { generation, version });
  if (warming) warming.cancelled = true;
  warming = null;
  if (atOnce) {
    previous = [];
    entries().clear();
    return;
  }
  const now = Date.now();
  // Each earlier generation keeps its own deadline: a second edit does not extend how long the first one waits.
  previous = [{ generation: before, until: now + graceMs() }, ...previous.filter((p) => p.until > now)];
  retire(() => true);
  warm(generation);
}

function graceMs(): number {
  return env().PAGE_CACHE_GRACE_SECONDS * 1000;
}

/** Keeps the earlier generations `keep` says yes to and drops every copy of the others. */
function retire(keep: (p: { generation: string; until: number }) => boolean) {
  previous = previous.filter(keep);
  const live = new Set([known.generation, ...previous.map((p) => p.generation)]);
  const gone = [...entries().keys()].filter((stored) => !live.has(generationOf(stored)));
  for (const stored of gone) entries().delete(stored);
}

/** Drops every kept copy (of any generation) of these paths, whatever their query string. */
function forget(paths: string[]) {
  if (!paths.length || !store) return;
  const gone = new Set(paths.map(routePath));
  for (const stored of [...store.keys()]) {
    const key = keyOf(stored);
    const target = key.slice(key.indexOf(" ") + 1);
    const path = target.split("?", 1)[0];
    if (gone.has(routePath(path))) store.delete(stored);
  }
}

/** The newest earlier copy of `key` that may still be served, if any. */
function previousCopy(key: string): Entry | undefined {
  const now = Date.now();
  for (const p of previous) {
    if (p.until <= now) continue;
    const entry = entries().get(slot(p.generation, key));
    if (entry) return entry;
  }
  return undefined;
}

/** Renders an address in this process (React Router, as an anonymous GET) with the given CSP nonce. */
export type PageRenderer = (href: string, nonce: string) => Promise<Response>;
let renderer: PageRenderer | undefined;

/** The React Router adapter hands over how to render a page outside any request (server/react-router-handler.ts). */
export function setPageRenderer(render: PageRenderer): void {
  renderer = render;
}

const LISTED = new Set<string>(PUBLIC_PAGES);
const isListedPage = (key: string) => {
  const path = key.slice(key.indexOf(" ") + 1);
  return LISTED.has(path) || (path.startsWith(COURSE_PAGE_PREFIX) && !path.includes("?") && !path.endsWith(".data"));
};

/**
 * Renders, for `generation`, every address kept under an earlier one (the listed public pages first, then the most
 * recently used, WARM_LIMIT in all; one asked for meanwhile moves to the front), one at a time when nothing else
 * is in flight; then the earlier copies go. Stops when another generation replaces this one.
 */
function warm(generation: string) {
  const earlier = new Set(previous.map((p) => p.generation));
  const todo = new Map<string, string>();
  // lru-cache lists the most recently used first.
  for (const [stored, entry] of entries().entries()) {
    if (earlier.has(generationOf(stored)) && !todo.has(keyOf(stored))) todo.set(keyOf(stored), entry.href);
  }
  const queue = [...todo].sort(([a], [b]) => Number(isListedPage(b)) - Number(isListedPage(a))).slice(0, WARM_LIMIT);
  const job: Warming = { generation, queue, quietBy: Date.now() + graceMs() * WAIT_FOR_QUIET_SHARE, cancelled: false };
  warming = job;
  void (async () => {
    for (let next = await nextToWarm(job); next && !job.cancelled; next = await nextToWarm(job)) {
      await warmOne(job, next[0], next[1]).catch(() => {
        // A page that fails to render now is rendered by its next visitor (or answered 503 while the database is away).
      });
    }
    if (job.cancelled || warming !== job) return;
    warming = null;
    retire(() => false);
  })();
}

/** The next address to render, once no request is in flight (or the wait has lasted long enough). */
async function nextToWarm(job: Warming): Promise<[string, string] | undefined> {
  // Answers that came in during the last render go out first.
  await new Promise((resolve) => setImmediate(resolve));
  while ((inFlight > 0 || Date.now() - lastRequestAt < QUIET_MS) && Date.now() < job.quietBy && !job.cancelled) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return job.cancelled ? undefined : job.queue.shift();
}

/** A visitor got the previous copy of `key`: its new one is rendered next. */
function wanted(key: string) {
  const queue = warming?.queue;
  const at = queue?.findIndex(([k]) => k === key) ?? -1;
  if (queue && at > 0) queue.unshift(...queue.splice(at, 1));
}

async function warmOne(job: Warming, key: string, href: string) {
  if (!renderer || !href || entries().has(slot(job.generation, key))) return;
  const nonce = randomBytes(16).toString("base64");
  const commitsBefore = commits;
  const response = await renderer(href, nonce);
  if (job.cancelled || !storable(response, isApiPath(new URL(href).pathname))) {
    await response.body?.cancel();
    return;
  }
  const entry = await toEntry(response, job.generation, nonce, href);
  if (!job.cancelled && known.generation === job.generation && commits === commitsBefore && entryBytes(entry) <= MAX_ENTRY_BYTES)
    entries().set(slot(job.generation, key), entry);
}

function anonymous(req: Request): boolean {
  if (req.headers.authorization) return false;
  return !carriesSessionCookie(req.headers.cookie);
}

type Pending = { key: string; generation: string; nonce: string; commits: number };
const PENDING = "pageCachePending";

/** Express middleware: answers from the cache, or marks the request so storeInPageCache() keeps its answer. */
export async function pageCache(req: Request, res: ExpressResponse, next: NextFunction) {
  inFlight++;
  lastRequestAt = Date.now();
  res.once("close", () => inFlight--);
  if ((req.method !== "GET" && req.method !== "HEAD") || !pageCacheEnabled() || !isCacheablePublicPath(req.path) || !anonymous(req)) return next();
  let generation: string;
  try {
    generation = await currentGeneration();
  } catch {
    return next(); // the database is away: the page's own loader answers (503)
  }
  const key = `${req.hostname} ${req.originalUrl}`;
  const hit = entries().get(slot(generation, key));
  if (hit) {
    res.setHeader("X-Page-Cache", "hit");
    return void serve(req, res, hit);
  }
  // Its new copy is still rendering: the previous one, for a few seconds at most; never for the API.
  const earlier = isApiPath(req.path) ? undefined : previousCopy(key);
  if (earlier) {
    wanted(key);
    res.setHeader("X-Page-Cache", "stale");
    return void serve(req, res, earlier);
  }
  res.locals[PENDING] = { key, generation, nonce: res.locals.cspNonce as string, commits } satisfies Pending;
  res.setHeader("X-Page-Cache", "miss");
  next();
}

/**
 * Called by the React Router adapter with the answer of a request pageCache() marked (`href`: the address it
 * rendered): keeps it when it may be kept, and answers (with ETag, or 304) from what was kept. Returns false when
 * the caller should send the response itself.
 */
export async function storeInPageCache(req: Request, res: ExpressResponse, response: Response, href: string): Promise<boolean> {
  const pending = res.locals[PENDING] as Pending | undefined;
  if (!pending || (req.method !== "GET" && req.method !== "HEAD") || !storable(response, isApiPath(req.path))) return false;
  const entry = await toEntry(response, pending.generation, pending.nonce, href);
  // A page built while this process learnt of a newer version, or made a change, is served this once, never kept.
  if (pending.generation === known.generation && pending.commits === commits && entryBytes(entry) <= MAX_ENTRY_BYTES)
    entries().set(slot(pending.generation, pending.key), entry);
  serve(req, res, entry);
  return true;
}

async function toEntry(response: Response, generation: string, nonce: string, href: string): Promise<Entry> {
  const body = Buffer.from(await response.arrayBuffer());
  const parts = splitOn(body, nonce);
  const entry: Entry = {
    generation,
    status: response.status,
    headers: [...response.headers].filter(([name]) => !PER_RESPONSE.has(name)),
    parts,
    gzipped: parts.map(deflatePart),
    etag: `W/"${createHash("sha256").update(body.toString("latin1").replaceAll(nonce, "")).digest("base64url").slice(0, 27)}"`,
    href,
  };
  if (!entry.headers.some(([name]) => name === "cache-control")) entry.headers.push(["cache-control", "private, no-cache"]);
  return entry;
}

const entryBytes = (entry: Entry) => entry.parts.reduce((n, p) => n + p.length, 0);

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
