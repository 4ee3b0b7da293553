import { spawn, type ChildProcessByStdio } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import pLimit from "p-limit";
import type { UploadKind } from "~/schemas/uploads";
import type { Detected, FileCheckJob, FileCheckLine, FileCheckRequest } from "./jobs.server";

/**
 * The one way the server looks inside a visitor's file. Every parser (file type, PDF, DOCX, legacy .doc, images)
 * runs in a check process (child.server.ts, one job at a time, kept for the next job while it behaves), never on
 * the server's event loop, under three limits:
 * the walk's step budget and visited sets (budget.server.ts, inside the parsers), a heap ceiling, and a wall-clock
 * deadline after which the process is killed. A file that exhausts any of them is refused like any file that
 * fails its check ("send a plain PDF" for a PDF). A new parser goes into detect.server.ts (or beside it, called
 * from child.server.ts) and so is under the same limits by construction.
 *
 * A child process rather than a worker thread: a large enough allocation past a worker's resourceLimits still
 * aborts the whole process (cfb's cyclic sector chains grow an array without bound), and only killing a process
 * stops native work (libvips) that has run away.
 */

/** What one check may take in wall-clock time; a real 10 MB document is checked in a second or two. */
export const FILE_CHECK_DEADLINE_MS = { detect: 10_000, reencode: 20_000 } as const;
/** The child's JavaScript heap. A 10 MB PDF with 32 MB of inflated object streams parses within about 150 MB. */
const HEAP_LIMIT_MB = 256;

/**
 * Decoding images, parsing Word files and inflating archives is the costly part of an upload, and anyone may
 * post enquiry attachments: at most two such jobs run at a time in this process, the rest wait their turn, so
 * a flood of uploads queues up instead of taking every core from the pages.
 */
export const UPLOAD_WORK_CONCURRENCY = 2;
const uploadWork = pLimit(UPLOAD_WORK_CONCURRENCY);

/** Jobs running and waiting now (for the logs, and for tests of the queue). */
export function uploadWorkLoad(): { running: number; waiting: number } {
  return { running: uploadWork.activeCount, waiting: uploadWork.pendingCount };
}

/**
 * The file's real type when it is one this kind of upload accepts (a DOC or DOCX only when its checks pass), else
 * null; "activePdf" for a PDF that runs or fetches something by itself, or that could not be checked within the
 * limits (its own message asks for a plain PDF).
 */
export async function detectType(file: string, kind: UploadKind, originalName: string, signal?: AbortSignal): Promise<Detected> {
  const outcome = await inTurn(signal, () => runCheck({ check: "detect", file, kind, originalName }, signal));
  if ("detected" in outcome) return outcome.detected;
  return "failed" in outcome && outcome.claimed === "pdf" ? "activePdf" : null;
}

/**
 * Re-encodes an image (images.server.ts says how) into `target`; its size. Throws when the image could not be
 * decoded within the limits (the caller refuses the file).
 */
export async function reencodeImage(source: string, target: string, kind: UploadKind, ext: string, signal?: AbortSignal): Promise<number> {
  const outcome = await inTurn(signal, () => runCheck({ check: "reencode", source, target, kind, ext }, signal));
  if ("reencoded" in outcome) return outcome.reencoded;
  throw new Error(`The image could not be re-encoded (${"failed" in outcome ? outcome.why : "no answer"})`);
}

/**
 * Runs a job in its turn, unless the request it is for has ended by then: a visitor who gave up (or a
 * connection the server closed while it waited) leaves nothing behind in the queue to decode.
 */
function inTurn<T>(signal: AbortSignal | undefined, job: () => Promise<T>): Promise<T> {
  return uploadWork(() => {
    signal?.throwIfAborted();
    return job();
  });
}

type Failure = { failed: true; claimed: string | null; why: string };
type Outcome = { detected: Detected } | { reencoded: number } | Failure;

/** A check process that has answered its last job and waits for the next; let go after IDLE_MS. */
type Checker = { proc: ChildProcessByStdio<Writable, Readable, null>; idle?: NodeJS.Timeout };

/** Checkers kept for the next job: starting one costs more than most checks (0.2-0.5 s, more from source). */
const idleCheckers: Checker[] = [];
const IDLE_MS = 60_000;
let nextJobId = 1;

function startChecker(): Checker {
  const [script, flags] = childCommand();
  const proc = spawn(process.execPath, [`--max-old-space-size=${HEAP_LIMIT_MB}`, ...flags, script], {
    // Nothing inherited (NODE_OPTIONS loaders, inspectors, secrets): a plain node on a plain script.
    env: {},
    cwd: PROJECT_ROOT,
    stdio: ["pipe", "pipe", "ignore"],
    windowsHide: true,
  });
  // A waiting checker never keeps the server (or a test run) from exiting; its input closing ends it.
  proc.unref();
  for (const stream of [proc.stdin, proc.stdout]) (stream as unknown as { unref?: () => void }).unref?.();
  proc.stdout.setEncoding("utf8");
  // A process that died is noticed by its job ("close"); writing to it must not throw in the server.
  proc.on("error", () => {});
  proc.stdin.on("error", () => {});
  return { proc };
}

function takeChecker(): Checker {
  for (;;) {
    const checker = idleCheckers.pop();
    if (!checker) return startChecker();
    clearTimeout(checker.idle);
    if (checker.proc.exitCode === null && checker.proc.signalCode === null) return checker;
  }
}

function keepChecker(checker: Checker): void {
  checker.idle = setTimeout(() => {
    const at = idleCheckers.indexOf(checker);
    if (at >= 0) idleCheckers.splice(at, 1);
    checker.proc.kill("SIGKILL");
  }, IDLE_MS);
  checker.idle.unref();
  idleCheckers.push(checker);
}

/**
 * One job in a check process: its answer, or why there was none (and the type the file claimed, if it got that
 * far). A process that failed a job in any way (deadline, heap, crash, the request gone) is killed, never reused.
 */
function runCheck(job: FileCheckJob, signal?: AbortSignal): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const checker = takeChecker();
    const { proc } = checker;
    const id = nextJobId++;
    let claimed: string | null = null;
    let settled = false;
    let out = "";
    const finish = (outcome: Outcome | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      proc.stdout.off("data", onData);
      proc.off("close", onClose);
      if (outcome instanceof Error || "failed" in outcome) proc.kill("SIGKILL");
      else keepChecker(checker);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => finish({ failed: true, claimed, why: "deadline" }), FILE_CHECK_DEADLINE_MS[job.check]);
    const onAbort = () => finish(signal!.reason instanceof Error ? signal!.reason : new Error("aborted"));
    const onData = (chunk: string) => {
      out += chunk;
      // A real answer is a few short lines; anything longer is not one.
      if (out.length > 64 * 1024) return finish({ failed: true, claimed, why: "output" });
      let newline: number;
      while (!settled && (newline = out.indexOf("\n")) >= 0) {
        const text = out.slice(0, newline);
        out = out.slice(newline + 1);
        let line: FileCheckLine & { id?: number };
        try {
          line = JSON.parse(text) as FileCheckLine & { id?: number };
        } catch {
          return finish({ failed: true, claimed, why: "output" });
        }
        if (line.id !== id) return finish({ failed: true, claimed, why: "output" });
        if ("claimed" in line) claimed = line.claimed;
        else if ("failed" in line) finish({ failed: true, claimed, why: line.failed });
        else if ("detected" in line) finish({ detected: line.detected });
        else finish({ reencoded: line.reencoded });
      }
    };
    // Killed for its heap, crashed, or exited without an answer.
    const onClose = (code: number | null, sig: NodeJS.Signals | null) => finish({ failed: true, claimed, why: sig ? `signal ${sig}` : `exit ${code}` });
    signal?.addEventListener("abort", onAbort, { once: true });
    proc.stdout.on("data", onData);
    proc.on("close", onClose);
    proc.stdin.write(`${JSON.stringify({ id, job } satisfies FileCheckRequest)}\n`);
  });
}

const HERE = fileURLToPath(import.meta.url);
/** Running from source (tests, `npm run dev`) or from the production build. */
const FROM_SOURCE = /\.tsx?$/.test(HERE);
const PROJECT_ROOT = FROM_SOURCE ? path.resolve(path.dirname(HERE), "../../..") : process.cwd();

let command: [string, string[]] | undefined;

/**
 * The child's script and the node flags it needs. From source: child.server.ts through tsx's loader (a dev
 * dependency, present wherever the sources run). Built: the server build's own entry file-check.js, next to the
 * file this code was bundled into (or one folder up, from a chunk in assets/).
 */
function childCommand(): [string, string[]] {
  if (command) return command;
  if (FROM_SOURCE) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    command = [path.join(path.dirname(HERE), "child.server.ts"), ["--import", tsx]];
  } else {
    const candidates = [path.join(path.dirname(HERE), "file-check.js"), path.join(path.dirname(HERE), "..", "file-check.js")];
    const found = candidates.find((c) => fs.existsSync(c));
    if (!found) throw new Error(`The file-check script is missing from the build (looked for ${candidates.join(", ")})`);
    command = [found, []];
  }
  return command;
}
