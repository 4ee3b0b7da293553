/**
 * What in a DOCX package makes Word run or fetch something when staff or a visitor opens the file:
 * a VBA project (macros); anything loaded from another machine or path (a remote template runs its macros, a
 * linked picture is a web beacon, and a UNC path hands the reader's Windows credentials to that host), so no
 * relationship may leave the package except a web link; fields that pull in another file or run a program
 * (any field not on a short list of harmless ones, see HARMLESS_FIELDS); altChunk, which imports another file (HTML, RTF, MHT) into the text; and
 * embedded OLE or ActiveX objects. Judged from part names, [Content_Types].xml, every relationship part
 * (*.rels) and the content of every XML part (scanned as it inflates: fields may sit in any of them).
 */

export type DocxPolicy = {
  /** Enquiry attachments come from anonymous visitors: no embedded objects either. */
  refuseEmbedded: boolean;
};

/** Relationship and content-type parts are a few kilobytes; anything this large is not a real one. */
export const MAX_INSPECTED_PART_BYTES = 1024 * 1024;

const MACRO_PART = /(^|\/)(vbaProject\.bin|vbaData\.xml)$/i;
// OLE objects (*.bin) and macro-enabled Office files embedded in the document; ActiveX controls. Embedded
// .xlsx/.docx packages (a chart's data) stay allowed: they cannot carry macros.
const EMBEDDED_PART = /^word\/(embeddings\/.*\.(bin|docm|dotm|xlsm|xlsb|xltm|pptm|potm|ppsm)$|activeX\/)/i;

const MACRO_RELATIONSHIPS = new Set(["vbaproject", "wordvbadata", "keymapcustomizations"]);
const EMBEDDED_RELATIONSHIPS = new Set(["oleobject", "control", "activexcontrolbinary"]);

/** Parts whose content must be read before the package is accepted. */
export function isInspectedPart(name: string): boolean {
  return /^\[Content_Types\]\.xml$/i.test(name) || /\.rels$/i.test(name);
}

/** True when the part's name alone refuses the package. */
export function partNameRefused(name: string, policy: DocxPolicy): boolean {
  return MACRO_PART.test(name) || (policy.refuseEmbedded && EMBEDDED_PART.test(name));
}

/** True when an inspected part's content refuses the package. */
export function partContentRefused(name: string, content: Buffer, policy: DocxPolicy): boolean {
  const xml = decodeXml(content);
  if (/^\[Content_Types\]\.xml$/i.test(name)) return /macroEnabled|vbaProject|vbaData/i.test(decodeEntities(xml));
  return relationships(xml).some((rel) => relationshipRefused(rel, policy));
}

type Relationship = { type: string; target: string; external: boolean };

/**
 * Word follows an external relationship by itself when the document opens (template, linked picture, frame,
 * sub-document, OLE link, external workbook, mail-merge source: a list that grows with each version), so
 * the only one allowed is a hyperlink, which waits for a click. No target, link or not, may be a file: URL or
 * a UNC path: that is another machine's share (or a program on the reader's disk) rather than a web page.
 */
function relationshipRefused(rel: Relationship, policy: DocxPolicy): boolean {
  // Only the last segment: transitional (schemas.openxmlformats.org) and strict (purl.oclc.org) URIs both count.
  const kind = rel.type.slice(rel.type.lastIndexOf("/") + 1).toLowerCase();
  if (MACRO_RELATIONSHIPS.has(kind)) return true;
  // altChunk: another file (HTML, MHT, RTF, a document) whose content Word imports, and fetches from, on opening.
  if (kind === "afchunk") return true;
  // Every external target but a web link is refused, the author's own template on C:\ included: Word opens it
  // when the document opens, and the same relationship pointing at \\host\share hands out the reader's NTLM hash.
  if (rel.external && kind !== "hyperlink") return true;
  if (namesFileOrShare(rel.target)) return true;
  return policy.refuseEmbedded && EMBEDDED_RELATIONSHIPS.has(kind);
}

/** A file: URL or a UNC path (\\host\share, //host/share, \\?\UNC\…), also when percent-encoded. */
function namesFileOrShare(target: string): boolean {
  // Leading spaces and control characters are passed over, as a URL parser does.
  const test = (t: string) => /^(file:|[\\/]{2})/i.test(t.replace(/^(?:\s|[^\x21-\uffff])+/, ""));
  if (test(target)) return true;
  try {
    return test(decodeURIComponent(target));
  } catch {
    return false;
  }
}

function relationships(xml: string): Relationship[] {
  const out: Relationship[] = [];
  // Quoted values may hold ">", so the tag runs to the first ">" outside quotes; "<" (never inside a tag or
  // a value) ends every attempt, which keeps the scan linear on a hostile part.
  for (const tag of xml.matchAll(/<(?:[\w.-]+:)?Relationship\b((?:[^<>"']|"[^<"]*"|'[^<']*')*)>/g)) {
    const attrs = new Map<string, string>();
    for (const a of tag[1].matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      attrs.set(a[1].toLowerCase(), decodeEntities(a[2] ?? a[3]).trim());
    }
    out.push({ type: attrs.get("type") ?? "", target: attrs.get("target") ?? "", external: (attrs.get("targetmode") ?? "").toLowerCase() === "external" });
  }
  return out;
}

/** XML parts may be UTF-16 (Word reads them); a UTF-8 reading would hide every name from the checks above. */
function decodeXml(content: Buffer): string {
  if (content[0] === 0xff && content[1] === 0xfe) return new TextDecoder("utf-16le").decode(content);
  if (content[0] === 0xfe && content[1] === 0xff) return new TextDecoder("utf-16be").decode(content);
  if (content[0] === 0x3c && content[1] === 0x00) return new TextDecoder("utf-16le").decode(content);
  if (content[0] === 0x00 && content[1] === 0x3c) return new TextDecoder("utf-16be").decode(content);
  return content.toString("utf8");
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Character references would otherwise hide a word from a plain text match (Ext&#101;rnal). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The fields a document may hold: the ones that only show what the document (or Word) already knows, as oletools'
 * msodde passes them over. Everything else is refused, so a field Word adds in a later version, or an old one
 * nobody thought of, is refused too: LINK (an OLE link, with \a updated on opening), DATABASE (a query on a file
 * or a connection string), RD (a file read for the table of contents), INCLUDEPICTURE / INCLUDETEXT / INCLUDE /
 * IMPORT (a picture or text from a path, URL or share), DDE / DDEAUTO (run a program), PRIVATE, CONTROL / OCX
 * (ActiveX). Like msodde, prompts on updating (ASK, FILLIN), AutoText from the document's own template and PRINT
 * stay: they fetch nothing (a remote template is refused above as a relationship).
 */
const HARMLESS_FIELDS = new Set(
  [
    // Numbering and references inside the document.
    "PAGE NUMPAGES SECTION SECTIONPAGES PAGEREF NOTEREF REF STYLEREF SEQ LISTNUM AUTONUM AUTONUMLGL AUTONUMOUT REVNUM",
    // Dates and the document's own properties.
    "DATE TIME CREATEDATE SAVEDATE PRINTDATE EDITTIME AUTHOR TITLE SUBJECT KEYWORDS COMMENTS LASTSAVEDBY NUMWORDS NUMCHARS",
    "FILENAME FILESIZE TEMPLATE DOCPROPERTY DOCVARIABLE INFO USERNAME USERINITIALS USERADDRESS",
    // Tables of contents, indexes, citations.
    "TOC TOA TA TC XE INDEX BIBLIOGRAPHY CITATION",
    // Form fields, formulas, layout.
    "FORMTEXT FORMCHECKBOX FORMDROPDOWN EQ SYMBOL ADVANCE QUOTE IF COMPARE SET SHAPE GOTOBUTTON BIDIOUTLINE",
    // Prompts and AutoText (from the document's own template), printer codes: msodde passes them over too.
    "ASK FILLIN AUTOTEXT AUTOTEXTLIST PRINT",
    // Mail merge (its data source is a relationship, refused above when it is external).
    "MERGEFIELD MERGEREC MERGESEQ NEXT NEXTIF SKIPIF ADDRESSBLOCK GREETINGLINE BARCODE DISPLAYBARCODE MERGEBARCODE",
    // Checked further below.
    "HYPERLINK MACROBUTTON ADDIN EMBED",
  ]
    .join(" ")
    .split(" "),
);

/** Field names that fetch or run something: refused wherever they stand in an instruction outside any field. */
const FETCHING_WORD = /\b(?:INCLUDEPICTURE|INCLUDETEXT|INCLUDE|IMPORT|LINK|DATABASE|RD|DDE|DDEAUTO|EMBED|HYPERLINK|CONTROL|OCX)\b/i;
/** A UNC path (\\host\share, written "\\\\host" in a field, or //host/share) where an argument may start. */
const UNC = /(?:^|[\s"'=])(?:\\{2,}|\/{2})[^\s\\/"]/;
/** A URL with an authority (http://, ftp://, even http:\\host, which Word straightens), or a file: URL in any spelling. */
const URL_OR_FILE = /[a-z][a-z0-9+.-]*:[\\/]{2}|\bfile:/i;
const WEB_URL = /^(?:https?:\/\/[^\s\\/"]|mailto:[^\s"])/i;

/**
 * True when a field instruction (its entities decoded) may not stay in the document: its name is not a harmless
 * one, or it names a UNC path, a file: URL or (but for a hyperlink's http(s) or mailto: target) any URL.
 * Shared with the .doc check (word-binary.server.ts), which reads the same instructions from the binary text.
 */
export function fieldInstructionRefused(code: string, policy: DocxPolicy): boolean {
  if (/INCLUDE(PICTURE|TEXT)/i.test(code)) return true;
  if (!/\S/.test(code)) return false;
  const name = /^\s*([^\s"\\{}]+)/.exec(code)?.[1].toUpperCase();
  // An instruction that starts with a quote or a switch has no name Word could run.
  if (name === undefined) return true;
  if (UNC.test(code)) return true;
  // A formula (= 2 + 3, =SUM(ABOVE)) computes from the document's numbers.
  if (name.startsWith("=")) return URL_OR_FILE.test(code);
  if (!HARMLESS_FIELDS.has(name)) return true;
  const args = fieldArguments(code.replace(/^\s*\S+/, ""));
  switch (name) {
    case "HYPERLINK": {
      // The target is the first argument that is not a switch or a switch's value; \l "bookmark" alone is a jump
      // inside the document. Only a web or mail link: a file, a share, another program's scheme (ms-msdt:) is not one.
      const target = hyperlinkTarget(args);
      if (target === undefined) return !args.some((a) => a.switch === "l");
      return !WEB_URL.test(target.trim()) || /\bfile:/i.test(target);
    }
    case "MACROBUTTON":
      // The template placeholder "MACROBUTTON NoMacro [Click here and type]" runs nothing; any other name is a
      // macro or a Word command run by a double click.
      return args[0]?.text.toLowerCase() !== "nomacro" || URL_OR_FILE.test(code);
    case "ADDIN":
      // A citation manager's data (Zotero, Mendeley, EndNote) holds the sources' web addresses; Word reads none of it.
      return /\bfile:/i.test(code);
    case "EMBED":
      // The display of an embedded object: only where embedded objects are allowed at all.
      return policy.refuseEmbedded || URL_OR_FILE.test(code);
    default:
      return URL_OR_FILE.test(code);
  }
}

type FieldArgument = { text: string; switch?: string };

/**
 * The arguments after a field's name: words and quoted texts (in which \\ is one backslash and \" a quote), a
 * switch (\l, \o, \*) taking the argument after it as its value when it is one that has a value.
 */
function fieldArguments(rest: string): FieldArgument[] {
  const tokens: { text: string; isSwitch: boolean }[] = [];
  for (const m of rest.matchAll(/"((?:[^"\\]|\\.)*)"?|(\\\S)|([^\s"]+)/g)) {
    if (m[1] !== undefined) tokens.push({ text: m[1].replace(/\\(.)/g, "$1"), isSwitch: false });
    else if (m[2] !== undefined) tokens.push({ text: m[2].slice(1).toLowerCase(), isSwitch: true });
    else tokens.push({ text: m[3], isSwitch: false });
  }
  const out: FieldArgument[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t.isSwitch) out.push({ text: t.text });
    else if (VALUE_SWITCHES.has(t.text) && tokens[i + 1] && !tokens[i + 1].isSwitch) out.push({ text: tokens[++i].text, switch: t.text });
    else out.push({ text: "", switch: t.text });
  }
  return out;
}

/** HYPERLINK's switches that take a value: \l bookmark, \o tooltip, \t frame; formatting switches \* \@ \#. */
const VALUE_SWITCHES = new Set(["l", "o", "t", "*", "@", "#"]);

function hyperlinkTarget(args: FieldArgument[]): string | undefined {
  return args.find((a) => a.switch === undefined)?.text;
}

const FIELD_ELEMENTS = new Set(["instrtext", "delinstrtext", "fldchar", "fldsimple"]);
/** The instructions of open fields held at once; a citation manager's field runs to some kilobytes. */
const MAX_FIELD_CODE_CHARS = 1024 * 1024;
const MAX_FIELD_DEPTH = 256;
/** An XML declaration or a tag name longer than this is not a real one. */
const MAX_HEAD_CHARS = 1024;

/** Reads one part as it inflates; write() and end() return true once the part refuses the package. */
export type PartScanner = { write(chunk: Buffer): boolean; end(): boolean };

/**
 * A scanner for one part of the package, whatever its name (the main document may be any part the package's
 * relationships name). A part that does not start like XML is not read further: Word reads no field in it.
 * In an XML part: a field instruction (w:instrText, which Word splits over runs at will, so joined per field;
 * w:fldSimple's w:instr) naming a field above, or a field whose name is itself made by a nested field (QUOTE
 * spells any word); a w:altChunk element; a DOCTYPE (its entities could spell a field); an encoding other than
 * UTF-8 or UTF-16 (OPC allows no other, and these checks would read it wrong). Memory stays bounded: text
 * outside field instructions is passed over, and only open fields' instructions are kept.
 */
export function scanPart(policy: DocxPolicy = { refuseEmbedded: true }): PartScanner {
  return new XmlPartScanner(policy);
}

type OpenField = { code: string; separated: boolean };

class XmlPartScanner implements PartScanner {
  constructor(private readonly policy: DocxPolicy) {}

  private head: Buffer | null = Buffer.alloc(0);
  private decoder: TextDecoder | null = null;
  private utf16 = false;
  private sniffing = true;
  private skip = false;
  private refused = false;
  private atStart = true;
  private buf = "";
  private mode: "text" | "comment" | "cdata" | "pi" | "tag" = "text";
  private tagLocal = "";
  private tagKept = false;
  private tagText = "";
  private quote = 0;
  private instr = 0;
  private fields: OpenField[] = [];
  private loose = "";
  private held = 0;

  write(chunk: Buffer): boolean {
    if (this.refused || this.skip) return this.refused;
    if (!this.decoder) {
      this.head = Buffer.concat([this.head!, chunk]);
      if (this.head.length < 4) return false;
      return this.start(this.head);
    }
    this.feed(this.decoder.decode(chunk, { stream: true }));
    return this.refused;
  }

  end(): boolean {
    if (this.refused || this.skip) return this.refused;
    if (!this.decoder && this.start(this.head!)) return true;
    if (this.skip) return false;
    this.feed(this.decoder!.decode());
    for (const f of this.fields) this.checkCode(f.code);
    // Instruction text outside any field: Word should not read it, but if it does, no word of it may fetch.
    if (FETCHING_WORD.test(decodeEntities(this.loose))) this.refuse();
    this.checkCode(this.loose);
    return this.refused;
  }

  private start(bytes: Buffer): boolean {
    this.head = null;
    const encoding = byteEncoding(bytes);
    if (!encoding) return this.refuse();
    this.utf16 = encoding !== "utf-8";
    this.decoder = new TextDecoder(encoding);
    this.feed(this.decoder.decode(bytes, { stream: true }));
    return this.refused;
  }

  private refuse(): true {
    this.refused = true;
    this.buf = "";
    return true;
  }

  private feed(text: string): void {
    if (this.refused || this.skip || !text) return;
    if (this.sniffing) {
      const first = text.search(/[^ \t\r\n]/);
      if (first < 0) return;
      if (text[first] !== "<") {
        this.skip = true;
        return;
      }
      this.sniffing = false;
      text = text.slice(first);
    }
    this.buf += text;
    this.pump();
  }

  /** Consumes what it can of buf; keeps only an unfinished token's start (a few characters, bounded). */
  private pump(): void {
    const b = this.buf;
    let i = 0;
    while (i < b.length && !this.refused) {
      if (this.mode === "comment" || this.mode === "pi") {
        const closer = this.mode === "comment" ? "-->" : "?>";
        const close = b.indexOf(closer, i);
        if (close < 0) {
          i = Math.max(i, b.length - 2);
          break;
        }
        this.mode = "text";
        i = close + closer.length;
        continue;
      }
      if (this.mode === "cdata") {
        const close = b.indexOf("]]>", i);
        const end = close < 0 ? Math.max(i, b.length - 2) : close;
        if (this.instr > 0) this.instructionText(b.slice(i, end).replace(/&/g, "&amp;"));
        i = end;
        if (close < 0) break;
        this.mode = "text";
        i = close + 3;
        continue;
      }
      if (this.mode === "tag") {
        let j = i;
        for (; j < b.length; j++) {
          const c = b.charCodeAt(j);
          if (this.quote) {
            if (c === this.quote) this.quote = 0;
          } else if (c === 0x22 || c === 0x27) this.quote = c;
          else if (c === 0x3e) break;
        }
        if (this.tagKept) {
          this.tagText += b.slice(i, j);
          if (this.tagText.length > MAX_FIELD_CODE_CHARS) return void this.refuse();
        }
        if (j === b.length) {
          i = j;
          break;
        }
        this.mode = "text";
        i = j + 1;
        if (this.tagKept) this.element(this.tagLocal, this.tagText);
        continue;
      }
      // Text, up to the next markup.
      const lt = b.indexOf("<", i);
      if (lt < 0) {
        if (this.instr > 0) this.instructionText(b.slice(i));
        i = b.length;
        break;
      }
      if (lt > i && this.instr > 0) this.instructionText(b.slice(i, lt));
      i = lt;
      if (this.markup(b, lt)) break;
      i = this.markupEnd;
    }
    this.buf = this.refused ? "" : b.slice(i);
  }

  private markupEnd = 0;

  /** Starts the markup at b[lt] ("<") and sets markupEnd past its start; true when more text is needed first. */
  private markup(b: string, lt: number): boolean {
    const rest = b.slice(lt, lt + 9);
    const known = rest.length === 9 || lt + 9 <= b.length;
    if (rest.length < 2) return true;
    if (rest.startsWith("<!")) {
      if (rest.startsWith("<!--")) {
        this.mode = "comment";
        this.markupEnd = lt + 4;
      } else if (!known && ["<!--", "<![CDATA[", "<!DOCTYPE"].some((m) => m.startsWith(rest))) {
        return true;
      } else if (rest === "<![CDATA[") {
        this.mode = "cdata";
        this.markupEnd = lt + 9;
      } else if (rest === "<!DOCTYPE") {
        // OPC forbids a DTD, and one of its entities could spell what is looked for here.
        this.refuse();
      } else {
        this.tagStart("");
        this.markupEnd = lt + 2;
      }
      this.atStart = false;
      return false;
    }
    if (rest.startsWith("<?")) {
      if (this.atStart) {
        // The XML declaration: its encoding must be the one the bytes were read in.
        const close = b.indexOf("?>", lt);
        if (close < 0) {
          if (b.length - lt <= MAX_HEAD_CHARS) return true;
          this.refuse();
        } else if (!declaredEncodingReadable(b.slice(lt, close), this.utf16)) this.refuse();
        this.atStart = false;
        this.markupEnd = close + 2;
        return false;
      }
      this.mode = "pi";
      this.markupEnd = lt + 2;
      return false;
    }
    const name = /^<\/?([^\s/>]*)/.exec(b.slice(lt, lt + MAX_HEAD_CHARS))!;
    // The name may go on in the next chunk.
    if (name[0].length === b.length - lt && name[0].length < MAX_HEAD_CHARS) return true;
    this.atStart = false;
    const local = name[1].slice(name[1].lastIndexOf(":") + 1).toLowerCase();
    if (local === "altchunk") {
      this.refuse();
      return false;
    }
    const closing = b[lt + 1] === "/";
    if (closing && (local === "instrtext" || local === "delinstrtext")) this.instr = Math.max(0, this.instr - 1);
    this.tagStart(closing ? "" : local);
    this.markupEnd = lt + name[0].length;
    return false;
  }

  /** Reads a tag on to its ">"; a start tag of a field element (local name given) is kept for its attributes. */
  private tagStart(local: string): void {
    this.mode = "tag";
    this.tagLocal = local;
    this.tagKept = FIELD_ELEMENTS.has(local);
    this.tagText = "";
    this.quote = 0;
  }

  /** A start tag of a field element, complete: its attributes (and "/" when it is empty). */
  private element(local: string, tag: string): void {
    const attrs = new Map<string, string>();
    for (const a of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      attrs.set(a[1].slice(a[1].lastIndexOf(":") + 1).toLowerCase(), decodeEntities(a[2] ?? a[3]));
    }
    if (local === "instrtext" || local === "delinstrtext") {
      if (!tag.trimEnd().endsWith("/")) this.instr++;
    } else if (local === "fldsimple") {
      this.checkCode(attrs.get("instr") ?? "");
    } else if (local === "fldchar") {
      const type = (attrs.get("fldchartype") ?? "").trim().toLowerCase();
      if (type === "begin") this.beginField();
      else if (type === "separate" && this.fields.length) this.fields[this.fields.length - 1].separated = true;
      else if (type === "end" && this.fields.length) {
        const field = this.fields.pop()!;
        this.held -= field.code.length;
        this.checkCode(field.code);
      }
    }
  }

  private beginField(): void {
    const parent = this.fields[this.fields.length - 1];
    // Word runs a nested field first and reads its result as part of the outer instruction: one that comes
    // before the outer field's name has ended makes that name ({ {QUOTE 73 78 …} "http://…" }).
    if (parent && !parent.separated && /^\s*\S*$/.test(decodeEntities(parent.code))) return void this.refuse();
    if (this.fields.length >= MAX_FIELD_DEPTH) return void this.refuse();
    this.fields.push({ code: "", separated: false });
  }

  /** Raw (still entity-encoded) text of an instruction: joined per field, as Word joins its runs. */
  private instructionText(raw: string): void {
    if (!raw) return;
    const field = this.fields[this.fields.length - 1];
    if (field) field.code += raw;
    else this.loose += raw;
    this.held += raw.length;
    if (this.held > MAX_FIELD_CODE_CHARS) this.refuse();
  }

  private checkCode(raw: string): void {
    if (this.refused || !raw) return;
    if (fieldInstructionRefused(decodeEntities(raw), this.policy)) this.refuse();
  }
}

/**
 * The encoding of a part from its first bytes, as an XML parser tells it (a byte-order mark, or "<" in
 * UTF-16); null for UTF-32 and EBCDIC, which these checks do not read (and OPC does not allow).
 */
function byteEncoding(b: Buffer): "utf-8" | "utf-16le" | "utf-16be" | null {
  const at = (i: number) => (i < b.length ? b[i] : -1);
  const four = [at(0), at(1), at(2), at(3)].join(",");
  if (["255,254,0,0", "0,0,254,255", "60,0,0,0", "0,0,0,60", "76,111,167,148"].includes(four)) return null;
  if ((at(0) === 0xff && at(1) === 0xfe) || (at(0) === 0x3c && at(1) === 0x00)) return "utf-16le";
  if ((at(0) === 0xfe && at(1) === 0xff) || (at(0) === 0x00 && at(1) === 0x3c)) return "utf-16be";
  return "utf-8";
}

/** An XML declaration names no encoding, or the one its bytes were read in. */
function declaredEncodingReadable(decl: string, utf16: boolean): boolean {
  if (!/^<\?xml[\s?]/.test(decl + "?")) return true;
  const m = /\sencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(decl);
  if (!m) return true;
  const name = (m[1] ?? m[2]).trim().toLowerCase();
  return utf16 ? /^(utf-?16(le|be)?|unicode)$/.test(name) : /^utf-?8$/.test(name);
}
