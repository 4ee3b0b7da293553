import { Readable } from "node:stream";
import { stringify } from "csv-stringify";

/**
 * A CSV download streamed from the database a page at a time: UTF-8 with a byte-order mark (so Excel reads
 * Indian names right), one header row, and cells that a spreadsheet would run as a formula (starting with
 * =, +, -, @, tab or carriage return) neutralised with a leading apostrophe (OWASP: CSV injection).
 */
export type CsvColumn<T> = { header: string; value: (row: T) => string | number | boolean | null | undefined };

const FORMULA = /^[=+\-@\t\r]/;

export function neutralise(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}

export function csvResponse<T>(fileName: string, columns: CsvColumn<T>[], pages: AsyncIterable<T[]>): Response {
  const csv = stringify({ bom: true, header: true, columns: columns.map((c) => c.header), record_delimiter: "\r\n" });
  const source = Readable.from(
    (async function* () {
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
