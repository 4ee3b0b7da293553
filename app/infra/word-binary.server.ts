import { execFile } from "node:child_process";
import { createRequire } from "node:module";

/**
 * What a Word 97-2003 (.doc) file holds, read from its compound-file directory with the `cfb` package.
 *
 * The parse runs in a short-lived child process with a small heap and a deadline: cfb 1.2.2 follows a
 * stream's sector chain without loop detection (SheetJS/js-cfb#11), so a 12 KB file with a cyclic FAT grows
 * an array until the heap is exhausted. In the server's process that is a fatal error; a worker thread with
 * resourceLimits is no shelter either (a large enough allocation past its limit still aborts the whole
 * process). A child that dies only refuses the file.
 */
export type WordBinary = {
  /** The WordDocument stream at the root: every Word file has it, other compound files (MSI, XLS, MSG) do not. */
  word: boolean;
  /** A VBA project: Macros/ (Word), _VBA_PROJECT_CUR/ (Office), or any VBA storage, dir or _VBA_PROJECT stream. */
  macros: boolean;
  /** Embedded OLE objects: an ObjectPool storage with something in it. */
  objects: boolean;
};

const PARSE_TIMEOUT_MS = 5_000;
// A 10 MB file parses within about 20 MB of heap (stream contents are Buffers, outside the heap).
const HEAP_LIMIT_MB = 64;

// Plain CommonJS run with `node -e`, so the server bundle needs no separate script file. Arguments: cfb's path, the file.
const CHILD_SOURCE = `
const CFB = require(process.argv[1]);
const container = CFB.read(require("node:fs").readFileSync(process.argv[2]), { type: "buffer" });
process.stdout.write(JSON.stringify(container.FullPaths.map((path, i) => ({ path, type: container.FileIndex[i].type }))));
`;

const STORAGE = 1;
const STREAM = 2;

let cfbPath: string | undefined;

/** The file's structure, or null when it is not a readable compound file (or the parse ran over its limits). */
export async function inspectWordBinary(file: string): Promise<WordBinary | null> {
  cfbPath ??= createRequire(import.meta.url).resolve("cfb");
  const entries = await listEntries(file, cfbPath);
  return entries ? classify(entries) : null;
}

type Entry = { path: string; type: number };

function listEntries(file: string, modulePath: string): Promise<Entry[] | null> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${HEAP_LIMIT_MB}`, "-e", CHILD_SOURCE, modulePath, file],
      // No inherited NODE_OPTIONS (loaders, inspectors): the child runs plain node on a plain script.
      { env: {}, timeout: PARSE_TIMEOUT_MS, killSignal: "SIGKILL", maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout) => {
        // A malformed file (cfb throws), one that exhausts the child's heap or runs past the deadline: refused.
        if (error) return resolve(null);
        try {
          resolve(JSON.parse(stdout) as Entry[]);
        } catch {
          resolve(null);
        }
      },
    );
  });
}

/** Names inside a compound file are compared without case, as Office does. */
function classify(entries: Entry[]): WordBinary {
  const result: WordBinary = { word: false, macros: false, objects: false };
  for (const { path, type } of entries) {
    // FullPaths look like "Root Entry/Macros/VBA/dir" (storages end in "/"); drop the root's own name.
    const parts = path.toLowerCase().split("/").filter(Boolean).slice(1);
    if (!parts.length) continue;
    const name = parts[parts.length - 1];
    if (type === STREAM && parts.length === 1 && name === "worddocument") result.word = true;
    const inVba = parts.slice(0, -1).includes("vba");
    if (
      parts[0] === "macros" ||
      parts[0] === "_vba_project_cur" ||
      (type === STORAGE && name === "vba") ||
      name === "_vba_project" ||
      (type === STREAM && name === "dir" && inVba)
    ) {
      result.macros = true;
    }
    if (parts[0] === "objectpool" && parts.length > 1) result.objects = true;
  }
  return result;
}
