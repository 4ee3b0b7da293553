import { Readable } from "node:stream";
import { stringify } from "csv-stringify";

/**
 * A CSV download streamed from the database a page at a time: UTF-8 with a byte-order mark (so Excel reads
 * Indian names right), one header row, and cells that a spreadsheet would run as a formula neutralised
 * (OWASP: CSV injection; see neutralise).
 */
export type CsvColumn<T> = { header: string; value: (row: T) => string | number | boolean | null | undefined };

// What starts a formula (= + - @, tab and carriage return, which some programs drop before reading on, and the
// full-width = + - @ that Apple Numbers folds into the plain ones) where a spreadsheet may start a cell: at the
// value's start, after a "," or ";", or after a line break (CR, LF, and the other breaks a program may split on:
// VT, FF, NEL, U+2028, U+2029), past any blanks on that line.
const RISKY = "=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20";
const BREAKS = "\\n\\r\\v\\f\\u0085\\u2028\\u2029";
const BLANKS = `[^\\S${BREAKS}]*`;
const FORMULA = new RegExp(`(?:^|[,;${BREAKS}])${BLANKS}[${RISKY}]`);
const INNER_CELL_START = new RegExp(`([,;${BREAKS}])(?=${BLANKS}[${RISKY}])`, "g");
// Direction controls (U+202A–202E embeddings and overrides, U+2066–2069 isolates): a spreadsheet shows a name
// with them reversed. Stored one-line fields have none (app/schemas/fields.ts); older rows and messages may.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * A value that could run as a formula gets a leading apostrophe, and so does each risky character after a
 * "," or ";" or a line break inside it. A program that opens the file with ";" as its separator (Excel in many
 * European locales) or ignores the quotes splits the value there, and one that reads line by line starts a new
 * row at a line break: the split-off part starts a cell of its own, the apostrophe at the value's start does not
 * reach it, so it gets its own, before any blanks, which a program may trim ("Batch A;' =HYPERLINK(…)",
 * "Hello\n'=HYPERLINK(…)"). A phone number written +91 … reads '+91 … (as OWASP recommends); every other value
 * is left as it is, but for direction controls, which are dropped.
 */
export function neutralise(value: string): string {
  const text = value.replace(BIDI_CONTROLS, "");
  return FORMULA.test(text) ? `'${text.replace(INNER_CELL_START, "$1'")}` : text;
}

export function csvResponse<T>(fileName: string, columns: CsvColumn<T>[], pages: AsyncIterable<T[]>): Response {
  // A neutralised value is quoted too, so a program that splits on another separator but honours quotes keeps
  // it in one cell behind its apostrophe.
  const csv = stringify({ bom: true, record_delimiter: "\r\n", quoted_match: /^'/ });
  const source = Readable.from(
    (async function* () {
      // The header row first, before the database's first page (csv-stringify's own header waits for the first
      // record): the browser starts the download at once, however long that page takes (1.3 s at 1,000,000 rows).
      yield columns.map((c) => c.header);
      for await (const rows of pages) {
        for (const row of rows) {
          yield columns.map((c) => {
            const v = c.value(row);
            return v === null || v === undefined ? "" : neutralise(String(v));
          });
        }
      }
    })(),
  );
  // Backpressure: the database is read only as fast as the client downloads.
  source.on("error", (error) => csv.destroy(error));
  source.pipe(csv);
  csv.on("error", (error) => console.error(`Export ${fileName} failed:`, error));
  return new Response(Readable.toWeb(csv) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
