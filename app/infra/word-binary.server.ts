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
  /**
   * The field instructions in the document's text (each field's own, nested ones apart), whether a nested field
   * stood where a field's name should be, and whether the instructions ran past 1 M characters; null when the text
   * could not be read.
   */
  fields: { codes: string[]; nestedName: boolean; tooLong: boolean } | null;
};

const PARSE_TIMEOUT_MS = 5_000;
// A 10 MB file parses within about 20 MB of heap (stream contents are Buffers, outside the heap).
const HEAP_LIMIT_MB = 64;

// Plain CommonJS run with `node -e`, so the server bundle needs no separate script file. Arguments: cfb's path, the file.
// Besides the directory it reads the document's text as Word stores it (the FIB's piece table in the table stream,
// [MS-DOC] 2.5.1 and 2.9.38) and prints each field's instruction: the text between a field-begin character (0x13)
// and its separator (0x14) or end (0x15), nested fields apart. fields is null when the text cannot be read (an
// encrypted file, no FIB): Word cannot show such a file without its password either.
const CHILD_SOURCE = `
const CFB = require(process.argv[1]);
const container = CFB.read(require("node:fs").readFileSync(process.argv[2]), { type: "buffer" });
const entries = container.FullPaths.map((path, i) => ({ path, type: container.FileIndex[i].type }));
const MAX_TEXT = 32 * 1024 * 1024;
const MAX_CODES = 1024 * 1024;
function text() {
  const word = CFB.find(container, "/WordDocument");
  if (!word || !word.content || word.content.length < 0x1aa) return null;
  const w = Buffer.from(word.content);
  if (w.readUInt16LE(0) !== 0xa5ec) return null;
  const flags = w.readUInt16LE(0x0a);
  if (flags & 0x0100) return null;
  const table = CFB.find(container, flags & 0x0200 ? "/1Table" : "/0Table");
  if (!table || !table.content) return null;
  const t = Buffer.from(table.content);
  const fcClx = w.readUInt32LE(0x1a2);
  const lcbClx = w.readUInt32LE(0x1a6);
  if (fcClx + lcbClx > t.length) return null;
  let at = fcClx;
  const end = fcClx + lcbClx;
  while (at < end && t[at] === 1) at += 3 + t.readInt16LE(at + 1);
  if (at + 5 > end || t[at] !== 2) return null;
  const lcb = t.readUInt32LE(at + 1);
  const plc = at + 5;
  if (plc + lcb > t.length || lcb < 16 || (lcb - 4) % 12 !== 0) return null;
  const n = (lcb - 4) / 12;
  let out = "";
  for (let i = 0; i < n; i++) {
    const count = t.readUInt32LE(plc + 4 * (i + 1)) - t.readUInt32LE(plc + 4 * i);
    const raw = t.readUInt32LE(plc + 4 * (n + 1) + 8 * i + 2);
    const compressed = (raw & 0x40000000) !== 0;
    const fc = raw & 0x3fffffff;
    if (count <= 0) continue;
    if (out.length + count > MAX_TEXT) return null;
    if (compressed) {
      const start = fc / 2;
      if (start + count > w.length) return null;
      out += w.toString("latin1", start, start + count);
    } else {
      if (fc + 2 * count > w.length) return null;
      out += w.toString("utf16le", fc, fc + 2 * count);
    }
  }
  return out;
}
function fields(doc) {
  const codes = [];
  const open = [];
  let held = 0;
  let nestedName = false;
  for (let i = 0; i < doc.length; i++) {
    const c = doc.charCodeAt(i);
    const top = open[open.length - 1];
    if (c === 0x13) {
      // A nested field before the outer one's name has ended makes that name (QUOTE spells any word).
      if (top && !top.separated && /^\\s*\\S*$/.test(top.code)) nestedName = true;
      open.push({ code: "", separated: false });
    } else if (c === 0x14) {
      if (top) top.separated = true;
    } else if (c === 0x15) {
      if (top) codes.push(open.pop().code);
    } else if (top && !top.separated) {
      top.code += doc[i];
      if (++held > MAX_CODES) return { codes, nestedName, tooLong: true };
    }
  }
  for (const f of open) codes.push(f.code);
  return { codes, nestedName, tooLong: false };
}
let found = null;
try {
  const doc = text();
  if (doc !== null) found = fields(doc);
} catch {
  found = null;
}
process.stdout.write(JSON.stringify({ entries, fields: found }));
`;

const STORAGE = 1;
const STREAM = 2;

let cfbPath: string | undefined;

/** The file's structure, or null when it is not a readable compound file (or the parse ran over its limits). */
export async function inspectWordBinary(file: string): Promise<WordBinary | null> {
  cfbPath ??= createRequire(import.meta.url).resolve("cfb");
  const listed = await listEntries(file, cfbPath);
  return listed ? { ...classify(listed.entries), fields: listed.fields } : null;
}

type Entry = { path: string; type: number };

type Listed = { entries: Entry[]; fields: WordBinary["fields"] };

function listEntries(file: string, modulePath: string): Promise<Listed | null> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${HEAP_LIMIT_MB}`, "-e", CHILD_SOURCE, modulePath, file],
      // No inherited NODE_OPTIONS (loaders, inspectors): the child runs plain node on a plain script.
      { env: {}, timeout: PARSE_TIMEOUT_MS, killSignal: "SIGKILL", maxBuffer: 4 * 1024 * 1024, windowsHide: true },
      (error, stdout) => {
        // A malformed file (cfb throws), one that exhausts the child's heap or runs past the deadline: refused.
        if (error) return resolve(null);
        try {
          resolve(JSON.parse(stdout) as Listed);
        } catch {
          resolve(null);
        }
      },
    );
  });
}

/** Names inside a compound file are compared without case, as Office does. */
function classify(entries: Entry[]): Omit<WordBinary, "fields"> {
  const result = { word: false, macros: false, objects: false };
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
