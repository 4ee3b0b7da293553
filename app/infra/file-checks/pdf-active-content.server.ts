import { AsyncLocalStorage } from "node:async_hooks";
import fsp from "node:fs/promises";
import { constants, inflateSync } from "node:zlib";
import type * as PdfLib from "@cantoo/pdf-lib";
import { BudgetExhausted, FILE_CHECK_STEPS, StepBudget } from "./budget.server";

/**
 * What in a PDF makes a reader run or fetch something by itself, read from the file's object structure with
 * pdf-lib's parser (@cantoo/pdf-lib, the maintained fork of pdf-lib, whose last release was in 2021) (every object in the file, those inside compressed object streams too, names with their
 * #xx escapes decoded): JavaScript anywhere (an action's /JS, the document's /JavaScript name tree); the actions
 * that start a program or open another file (/Launch, /GoToR, /GoToE), send the form somewhere (/SubmitForm) or
 * load data into it (/ImportData), and /Rendition and /RichMediaExecute, which can carry scripts; files embedded in
 * it (/EmbeddedFiles, a file specification's /EF, an /EmbeddedFile stream, a file-attachment annotation); XFA
 * forms (scripted XML); and a web address opened without a click: a /URI action in /OpenAction or in any
 * additional-actions (/AA) dictionary, followed along /Next. A link the reader clicks stays allowed. A file with an
 * object the in-order parse did not read (hiddenObjectAt) is refused: a reader would find it by its table.
 *
 * pdf-lib inflates object streams whole; a crafted one would inflate to gigabytes. Each is inflated here first by
 * zlib with a ceiling (MAX_DECODED_BYTES for the whole file), and pdf-lib reads the inflated bytes.
 *
 * The walk counts its steps (a StepBudget) and visits each object once: a 2.4 KB file whose actions name the next
 * action twice per level, 20 levels deep, made the old walk take 2^20 paths (15 s); an object defined 40,000 times
 * made the list of its versions be copied at every definition (35 s). Both now cost what their size does. The
 * check runs in the file-check process (index.server.ts), never on the server's event loop.
 */
export type PdfVerdict = "plain" | "active" | "unreadable";

const ACTIVE_ACTIONS = new Set(["JavaScript", "Launch", "GoToR", "GoToE", "SubmitForm", "ImportData", "Rendition", "RichMediaExecute"]);
const ACTIVE_KEYS = new Set(["JS", "JavaScript", "EmbeddedFiles", "EF", "XFA", "RichMediaContent"]);
const ACTIVE_TYPES = new Set(["EmbeddedFile"]);
const ACTIVE_SUBTYPES = new Set(["FileAttachment", "RichMedia"]);
/** Object and cross-reference streams of a real document inflate to a few megabytes at most. */
export const MAX_DECODED_BYTES = 32 * 1024 * 1024;
/** Nested arrays and dictionaries deeper than this are no document's. */
const MAX_DEPTH = 200;

class Unreadable extends Error {}

/**
 * Bytes the file's streams may still inflate to, bytes pdf-lib's parsers may still read (countReads), and the
 * object streams pdf-lib opened (so the walk can tell one it did not).
 */
type Budget = { left: number; reads: number; opened: WeakSet<object> };
const budgets = new AsyncLocalStorage<Budget>();

let loaded: Promise<typeof PdfLib> | undefined;

/** pdf-lib, loaded when the first PDF is checked, its stream readers bounded. */
function pdfLib(): Promise<typeof PdfLib> {
  loaded ??= import("@cantoo/pdf-lib").then((lib) => {
    bound(lib);
    return lib;
  });
  return loaded;
}

/**
 * Object streams and cross-reference streams are the only streams pdf-lib decodes while it parses. Each goes through
 * zlib first, within what is left of the file's budget; pdf-lib then reads the inflated bytes as an unfiltered
 * stream. Any other filter on them (no writer uses one) makes the file unreadable.
 */
function bound(lib: typeof PdfLib): void {
  const { PDFArray, PDFName, PDFObjectStreamParser, PDFRawStream, PDFXRefStreamParser } = lib;
  const inflated = (raw: PdfLib.PDFRawStream): PdfLib.PDFRawStream => {
    const budget = budgets.getStore();
    if (!budget) throw new Unreadable("stream read outside a check");
    const filter = raw.dict.lookup(PDFName.of("Filter"));
    const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
    let data: Uint8Array = raw.contents;
    for (const f of filters) {
      if (!(f instanceof PDFName) || nameText(f) !== "FlateDecode") throw new Unreadable("unexpected filter");
      try {
        data = inflateSync(data, { maxOutputLength: Math.max(1, budget.left), finishFlush: constants.Z_SYNC_FLUSH });
      } catch {
        throw new Unreadable("stream does not inflate within the limit");
      }
      budget.left -= data.length;
    }
    budget.reads += READS_PER_BYTE * data.length;
    const dict = raw.dict.clone();
    dict.delete(PDFName.of("Filter"));
    dict.delete(PDFName.of("DecodeParms"));
    return PDFRawStream.of(dict, data);
  };
  const objectStream = PDFObjectStreamParser.forStream.bind(PDFObjectStreamParser);
  PDFObjectStreamParser.forStream = (raw, tick) => {
    budgets.getStore()?.opened.add(raw);
    return countReads(objectStream(inflated(raw), tick));
  };
  const xrefStream = PDFXRefStreamParser.forStream.bind(PDFXRefStreamParser);
  PDFXRefStreamParser.forStream = (raw) => countReads(xrefStream(inflated(raw)));
}

/**
 * How often pdf-lib's parsers may read each byte they are given (the file, and each stream it inflates), plus a
 * little for a small file. A well-formed file is read about once (a stream's data is skipped by its /Length, or
 * scanned once for endstream).
 */
const READS_PER_BYTE = 4;
const READ_SLACK = 1024 * 1024;

/**
 * The parser reads what it is given a few times at most: pdf-lib reads some files again and again from one place
 * (object stream entries all pointing at one long comment, stray text before a long run of spaces), and the walk's
 * steps never saw it: a 1.7 KB file kept a check process busy until its 10 s deadline, and a 20 KB one for 8 s
 * before it was taken. Every byte pdf-lib reads goes through its ByteStream's next(), counted here; such a file
 * runs out of reads at once and is refused.
 */
function countReads<T>(parser: T): T {
  const budget = budgets.getStore();
  if (!budget) throw new Unreadable("stream read outside a check");
  const stream = (parser as unknown as { bytes: { next(): number } }).bytes;
  const next = stream.next.bind(stream);
  stream.next = () => {
    if (--budget.reads < 0) throw new Unreadable("the parser read the same bytes over and over");
    return next();
  };
  return parser;
}

/**
 * A name as the file spells it decoded: pdf-lib decodes #xx only in upper-case hex (#4A), a reader in either case
 * (/J#61vaScript, /#4aavaScript), so the rest is decoded here.
 */
function nameText(name: PdfLib.PDFName): string {
  return name.decodeText().replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Whether the PDF at `file` is plain, has active content, or cannot be read (or walked within `steps`) well enough to tell. */
export async function pdfActiveContent(file: string, steps = new StepBudget(FILE_CHECK_STEPS)): Promise<PdfVerdict> {
  const lib = await pdfLib();
  const bytes = await fsp.readFile(file);
  // Never waits for a tick (it runs alone in its process); throwOnInvalidObject: a malformed object is not skipped
  // with a log line per object, the file is refused; capNumbers as before.
  const parser = lib.PDFParser.forBytesWithOptions(bytes, Infinity, true, false, true);
  // Every version of every object, not only the last: a file may define an object twice (an incremental update
  // does), and a reader that follows a crafted cross-reference table may take the first. Appended in place.
  const versions = new Map<string, PdfLib.PDFObject[]>();
  const context = (parser as unknown as { context: PdfLib.PDFContext }).context;
  const assign = context.assign.bind(context);
  context.assign = (ref, object) => {
    steps.spend();
    const key = ref.toString();
    const list = versions.get(key);
    if (list) list.push(object);
    else versions.set(key, [object]);
    assign(ref, object);
  };
  // Where pdf-lib read each object it parsed, in order (see hiddenObjectAt).
  const starts = new Set<number>();
  const inOrder = parser as unknown as { parseIndirectObject(): Promise<unknown>; bytes: { offset(): number } };
  const parseIndirectObject = inOrder.parseIndirectObject.bind(parser);
  inOrder.parseIndirectObject = () => {
    starts.add(inOrder.bytes.offset());
    return parseIndirectObject();
  };
  const budget: Budget = { left: MAX_DECODED_BYTES, reads: READS_PER_BYTE * bytes.length + READ_SLACK, opened: new WeakSet() };
  try {
    await budgets.run(budget, () => countReads(parser).parseDocument());
  } catch {
    return "unreadable";
  }
  if (hiddenObjectAt(bytes, starts)) return "unreadable";
  try {
    return new Walker(lib, versions, steps, budget.opened).verdict();
  } catch (error) {
    if (error instanceof Unreadable || error instanceof RangeError || error instanceof BudgetExhausted) return "unreadable";
    throw error;
  }
}

/**
 * An object header ("5 0 obj") in the file's bytes where pdf-lib, reading the file in order, did not read an
 * object: inside another object's stream data, a comment or a string. A reader follows the cross-reference table
 * to such an offset (or finds it when it rebuilds a damaged table) and uses the object there, so
 * `/OpenAction 5 0 R` with object 5 written only inside a comment ran JavaScript in a reader while the walk, which
 * never saw object 5, called the file plain. No writer puts an object there; the file is refused. The pattern takes
 * what readers' tokenisers take (signs, decimals, comments between the tokens), so it may find more than a reader
 * would, never less; it is anchored at the start of a number so it stays linear on long runs of digits.
 */
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const GAP = String.raw`(?:[\0\t\n\f\r ]|%[^\r\n]*(?=[\r\n]|$))+`;
const OBJECT_HEADER = new RegExp(String.raw`(?<![0-9.+-])${NUMBER}${GAP}${NUMBER}${GAP}obj`, "g");

function hiddenObjectAt(bytes: Uint8Array, starts: Set<number>): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  for (const match of text.matchAll(OBJECT_HEADER)) if (!starts.has(match.index)) return true;
  return false;
}

class Walker {
  /** Actions already followed for /URI: visited once for the whole walk (one that led to a /URI ended it). */
  private followed = new Set<unknown>();

  constructor(
    private readonly lib: typeof PdfLib,
    private readonly versions: Map<string, PdfLib.PDFObject[]>,
    private readonly steps: StepBudget,
    private readonly openedStreams: WeakSet<object>,
  ) {}

  verdict(): PdfVerdict {
    for (const objects of this.versions.values()) {
      for (const object of objects) if (this.active(object, 0)) return "active";
    }
    return "plain";
  }

  /** True when the object, or anything directly inside it (references are visited as objects of their own), is active. */
  private active(object: PdfLib.PDFObject, depth: number): boolean {
    const { PDFArray, PDFDict, PDFRawStream, PDFStream } = this.lib;
    this.steps.spend();
    if (depth > MAX_DEPTH) throw new Unreadable("nested too deep");
    if (object instanceof PDFStream) {
      // An object stream pdf-lib did not open (its /Type spelt with lower-case escapes): what it holds is unseen.
      if (object instanceof PDFRawStream && !this.openedStreams.has(object) && this.names(this.field(object.dict, "Type")).includes("ObjStm"))
        throw new Unreadable("unopened object stream");
      return this.active(object.dict, depth + 1);
    }
    if (object instanceof PDFArray) return object.asArray().some((item) => this.active(item, depth + 1));
    if (!(object instanceof PDFDict)) return false;
    for (const [key, value] of object.entries()) {
      const k = nameText(key);
      if (ACTIVE_KEYS.has(k)) return true;
      if (k === "S" && this.names(value).some((n) => ACTIVE_ACTIONS.has(n))) return true;
      if (k === "Type" && this.names(value).some((n) => ACTIVE_TYPES.has(n))) return true;
      if (k === "Subtype" && this.names(value).some((n) => ACTIVE_SUBTYPES.has(n))) return true;
      if (k === "OpenAction" && this.opensUri(value, 0)) return true;
      if (k === "AA" && this.resolve(value).some((aa) => aa instanceof PDFDict && aa.values().some((action) => this.opensUri(action, 0)))) return true;
      if (this.active(value, depth + 1)) return true;
    }
    return false;
  }

  /**
   * An action (or a chain of them along /Next, or an array of them) that is, or leads to, a /URI action. /OpenAction
   * may also be a destination ([page /Fit]), a jump inside the document; /AA holds an action per trigger (page
   * opened, field focused, document closed …).
   */
  private opensUri(value: PdfLib.PDFObject | undefined, depth: number): boolean {
    const { PDFArray, PDFDict } = this.lib;
    if (depth > MAX_DEPTH) throw new Unreadable("action chain too long");
    return this.resolve(value).some((action) => {
      this.steps.spend();
      // Reachability, not paths: an action (or a list of them) seen before either led to a /URI (and the walk
      // ended) or did not. Lists too: arrays naming the next array twice, 40 deep, were 2^40 paths.
      if (!(action instanceof PDFDict || action instanceof PDFArray) || this.followed.has(action)) return false;
      this.followed.add(action);
      if (action instanceof PDFArray) return action.asArray().some((item) => this.opensUri(item, depth + 1));
      return this.names(this.field(action, "S")).includes("URI") || this.opensUri(this.field(action, "Next"), depth + 1);
    });
  }

  /** A dictionary's entry by its decoded key (a key may be escaped as much as a value: /#4eext is /Next). */
  private field(dict: PdfLib.PDFDict, key: string): PdfLib.PDFObject | undefined {
    return dict.entries().find(([k]) => nameText(k) === key)?.[1];
  }

  /** Every object a value may stand for: itself, or each version of the object it refers to. */
  private resolve(value: PdfLib.PDFObject | undefined): PdfLib.PDFObject[] {
    if (value === undefined) return [];
    if (!(value instanceof this.lib.PDFRef)) return [value];
    const found = this.versions.get(value.toString()) ?? [];
    this.steps.spend(found.length);
    return found;
  }

  private names(value: PdfLib.PDFObject | undefined): string[] {
    return this.resolve(value).flatMap((v) => (v instanceof this.lib.PDFName ? [nameText(v)] : []));
  }
}
