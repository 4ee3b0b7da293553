import { crc32, deflateRawSync } from "node:zlib";
import CFB from "cfb";
import sharp from "sharp";

/** Builders for the upload corpus: real image bytes, hand-made ZIP/DOCX archives, multipart requests. */

export async function png(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
}

export async function jpeg(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 30, b: 200 } } })
    .withMetadata({ exif: { IFD0: { Copyright: "secret-exif-marker" } } })
    .jpeg()
    .toBuffer();
}

export async function gif(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 128, b: 0 } } })
    .gif()
    .toBuffer();
}

type ZipEntry = { name: string; data: Buffer; store?: boolean; declaredSize?: number };

/** A minimal ZIP writer (deflate or store), with the option to lie about an entry's uncompressed size. */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const body = e.store ? e.data : deflateRawSync(e.data, { level: 9 });
    const crc = crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const method = e.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const CONTENT_TYPES = Buffer.from(
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);
const DOCUMENT = Buffer.from(
  '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Syllabus</w:t></w:r></w:p></w:body></w:document>',
);

export function docx(extra: ZipEntry[] = [], contentTypes: Buffer = CONTENT_TYPES): Buffer {
  return zip([{ name: "[Content_Types].xml", data: contentTypes }, { name: "word/document.xml", data: DOCUMENT }, ...extra]);
}

/**
 * A real compound (OLE) file made with cfb: by default a Word 97-2003 document's WordDocument stream, plus
 * any other streams by path ("Macros/VBA/dir", "ObjectPool/_1/\u0001Ole10Native").
 */
export function compoundFile(withWordStream: boolean, extraStreams: string[] = []): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, withWordStream ? "/WordDocument" : "/SummaryInformation", Buffer.alloc(4096, 0x20));
  for (const name of extraStreams) CFB.utils.cfb_add(container, `/${name}`, Buffer.from('Attribute VB_Name = "x"'));
  return Buffer.from(CFB.write(container, { type: "buffer" }) as Uint8Array);
}

/**
 * A Word 97-2003 file whose text is `pieces` (each stored 8-bit or as UTF-16, as Word mixes them): a FIB naming
 * the 1Table stream, whose piece table ([MS-DOC] Clx/PlcPcd) points at the text. Fields are written as Word
 * writes them: 0x13 instruction 0x14 result 0x15.
 */
export function wordBinary(pieces: { text: string; unicode?: boolean }[]): Buffer {
  const TEXT_AT = 0x800;
  const bodies = pieces.map((p) => (p.unicode ? Buffer.from(p.text, "utf16le") : Buffer.from(p.text, "latin1")));
  const word = Buffer.alloc(TEXT_AT + bodies.reduce((n, b) => n + b.length, 0) + 512, 0);
  word.writeUInt16LE(0xa5ec, 0);
  word.writeUInt16LE(0x00c1, 2);
  word.writeUInt16LE(0x0200, 0x0a); // fWhichTblStm: the table stream is 1Table
  const plc = Buffer.alloc(4 * (pieces.length + 1) + 8 * pieces.length);
  let at = TEXT_AT;
  let cp = 0;
  pieces.forEach((p, i) => {
    bodies[i].copy(word, at);
    plc.writeUInt32LE(cp, 4 * i);
    cp += p.text.length;
    plc.writeUInt32LE(p.unicode ? at : (at * 2) | 0x40000000, 4 * (pieces.length + 1) + 8 * i + 2);
    at += bodies[i].length;
  });
  plc.writeUInt32LE(cp, 4 * pieces.length);
  const header = Buffer.alloc(5);
  header[0] = 2;
  header.writeUInt32LE(plc.length, 1);
  const clx = Buffer.concat([Buffer.from([1, 2, 0, 0, 0]), header, plc]); // a Prc with two bytes of grpprl, then the Pcdt
  word.writeUInt32LE(16, 0x1a2);
  word.writeUInt32LE(clx.length, 0x1a6);
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, "/WordDocument", word);
  CFB.utils.cfb_add(container, "/1Table", Buffer.concat([Buffer.alloc(16), clx]));
  return Buffer.from(CFB.write(container, { type: "buffer" }) as Uint8Array);
}

/**
 * A Word file whose WordDocument stream has a sector chain that loops back on itself and starts mid-chain:
 * cfb 1.2.2 follows such a chain forever (SheetJS/js-cfb#11).
 */
export function cyclicCompoundFile(): Buffer {
  const file = compoundFile(true);
  const sectorAt = (n: number) => 512 + n * 512;
  const fat = sectorAt(file.readInt32LE(76)); // the first FAT sector, from the header's DIFAT
  const entry = file.indexOf(Buffer.from("WordDocument", "utf16le"));
  const chain = [file.readInt32LE(entry + 116)];
  for (let next = file.readInt32LE(fat + chain[0] * 4); next >= 0; next = file.readInt32LE(fat + next * 4)) chain.push(next);
  file.writeInt32LE(chain[1], fat + chain[chain.length - 1] * 4);
  file.writeInt32LE(chain[1], entry + 116);
  return file;
}

/** A PE executable's first bytes ("MZ" ... "PE\0\0"), enough for type detection. */
export function windowsExecutable(): Buffer {
  const b = Buffer.alloc(1024);
  b.write("MZ", 0, "latin1");
  b.writeUInt32LE(0x80, 0x3c);
  b.write("PE\0\0", 0x80, "latin1");
  return b;
}

export function elfExecutable(): Buffer {
  const b = Buffer.alloc(256);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(b, 0);
  return b;
}

export const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

export type Part = { name: string; value: string } | { name: string; filename: string; type?: string; data: Buffer };

export const BOUNDARY = "----hardening-corpus-7f3a";

export function multipartBody(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ("filename" in p) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type ?? "application/octet-stream"}\r\n\r\n`,
        ),
        p.data,
        Buffer.from("\r\n"),
      );
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export function multipartRequest(parts: Part[], opts: { contentType?: string; body?: Buffer; chunked?: boolean } = {}): Request {
  const body = opts.body ?? multipartBody(parts);
  const headers: Record<string, string> = { "content-type": opts.contentType ?? `multipart/form-data; boundary=${BOUNDARY}` };
  if (opts.chunked) {
    // No Content-Length: the parser has to count what actually arrives.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < body.length; i += 64 * 1024) controller.enqueue(new Uint8Array(body.subarray(i, i + 64 * 1024)));
        controller.close();
      },
    });
    return new Request("http://localhost/upload", { method: "POST", headers, body: stream, duplex: "half" } as RequestInit);
  }
  headers["content-length"] = String(body.length);
  return new Request("http://localhost/upload", { method: "POST", headers, body: new Uint8Array(body) });
}
