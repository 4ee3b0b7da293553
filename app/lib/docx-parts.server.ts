/**
 * What in a DOCX package makes Word run or fetch something when staff or a visitor opens the file:
 * a VBA project (macros), a template, frame or sub-document loaded from another machine (a remote template
 * runs its macros, and a UNC path hands the reader's Windows credentials to that host), and embedded OLE or
 * ActiveX objects. Judged from part names, [Content_Types].xml and every relationship part (*.rels).
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
const FETCHING_RELATIONSHIPS = new Set(["attachedtemplate", "oleobject", "subdocument", "frame"]);
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

function relationshipRefused(rel: Relationship, policy: DocxPolicy): boolean {
  // Only the last segment: transitional (schemas.openxmlformats.org) and strict (purl.oclc.org) URIs both count.
  const kind = rel.type.slice(rel.type.lastIndexOf("/") + 1).toLowerCase();
  if (MACRO_RELATIONSHIPS.has(kind)) return true;
  if (FETCHING_RELATIONSHIPS.has(kind) && rel.external && !isLocalDrivePath(rel.target)) return true;
  return policy.refuseEmbedded && EMBEDDED_RELATIONSHIPS.has(kind);
}

/**
 * A document made from a Word template names that template by its path on the author's disk
 * (file:///C:\Users\…\Templates\Resume.dotx). Word looks there, finds nothing on the reader's machine and
 * carries on, so that is kept; a URL, a host or a UNC path (\\host\share, file://host/…) is refused.
 */
function isLocalDrivePath(target: string): boolean {
  return /^(file:\/{2,3})?[a-z]:[\\/]/i.test(target.trim());
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
