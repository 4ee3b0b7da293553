import fsp from "node:fs/promises";
import CFB from "cfb";
import type { StepBudget } from "./budget.server";

/**
 * What a Word 97-2003 (.doc) file holds, read from its compound-file directory with the `cfb` package.
 *
 * cfb 1.2.2 follows a stream's sector chain without loop detection (SheetJS/js-cfb#11): a 12 KB file with a
 * cyclic FAT grows an array until the heap is exhausted. This runs in the file-check process (index.server.ts),
 * whose heap ceiling and deadline end such a parse by ending the process: the file is refused, the server
 * never notices.
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

const MAX_TEXT = 32 * 1024 * 1024;
const MAX_CODES = 1024 * 1024;

type Container = ReturnType<typeof CFB.read>;

/**
 * The document's text as Word stores it (the FIB's piece table in the table stream, [MS-DOC] 2.5.1 and 2.9.38), or
 * null when it cannot be read (an encrypted file, no FIB): Word cannot show such a file without its password either.
 */
function documentText(container: Container, steps: StepBudget): string | null {
  const word = CFB.find(container, "/WordDocument");
  if (!word || !word.content || word.content.length < 0x1aa) return null;
  const w = Buffer.from(word.content as Uint8Array);
  if (w.readUInt16LE(0) !== 0xa5ec) return null;
  const flags = w.readUInt16LE(0x0a);
  if (flags & 0x0100) return null;
  const table = CFB.find(container, flags & 0x0200 ? "/1Table" : "/0Table");
  if (!table || !table.content) return null;
  const t = Buffer.from(table.content as Uint8Array);
  const fcClx = w.readUInt32LE(0x1a2);
  const lcbClx = w.readUInt32LE(0x1a6);
  if (fcClx + lcbClx > t.length) return null;
  let at = fcClx;
  const end = fcClx + lcbClx;
  while (at < end && t[at] === 1) {
    steps.spend();
    at += 3 + t.readInt16LE(at + 1);
  }
  if (at + 5 > end || t[at] !== 2) return null;
  const lcb = t.readUInt32LE(at + 1);
  const plc = at + 5;
  if (plc + lcb > t.length || lcb < 16 || (lcb - 4) % 12 !== 0) return null;
  const n = (lcb - 4) / 12;
  let out = "";
  for (let i = 0; i < n; i++) {
    steps.spend();
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

/**
 * Each field's instruction: the text between a field-begin character (0x13) and its separator (0x14) or end (0x15),
 * nested fields apart; whether a nested field stood where a field's name should be (QUOTE spells any word).
 */
function fieldsOf(doc: string): NonNullable<WordBinary["fields"]> {
  const codes: string[] = [];
  const open: { code: string; separated: boolean }[] = [];
  let held = 0;
  let nestedName = false;
  for (let i = 0; i < doc.length; i++) {
    const c = doc.charCodeAt(i);
    const top = open[open.length - 1];
    if (c === 0x13) {
      if (top && !top.separated && /^\s*\S*$/.test(top.code)) nestedName = true;
      open.push({ code: "", separated: false });
    } else if (c === 0x14) {
      if (top) top.separated = true;
    } else if (c === 0x15) {
      if (top) codes.push(open.pop()!.code);
    } else if (top && !top.separated) {
      top.code += doc[i];
      if (++held > MAX_CODES) return { codes, nestedName, tooLong: true };
    }
  }
  for (const f of open) codes.push(f.code);
  return { codes, nestedName, tooLong: false };
}

const STORAGE = 1;
const STREAM = 2;

/** The file's structure, or null when it is not a readable compound file. */
export async function inspectWordBinary(file: string, steps: StepBudget): Promise<WordBinary | null> {
  let container: Container;
  try {
    container = CFB.read(await fsp.readFile(file), { type: "buffer" });
  } catch {
    return null;
  }
  steps.spend(container.FullPaths.length);
  const entries = container.FullPaths.map((path, i) => ({ path, type: container.FileIndex[i].type }));
  let fields: WordBinary["fields"] = null;
  try {
    const doc = documentText(container, steps);
    if (doc !== null) fields = fieldsOf(doc);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return { ...classify(entries), fields };
}

type Entry = { path: string; type: number };

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
