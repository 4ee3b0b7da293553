import { closeDb, openDb } from "~db/client.server";
import { issueInvoiceNow } from "~/services/invoices.server";

/**
 * One "app instance" for the invoice-serial test: its own process and connection (pool) to the database named by
 * DATABASE_URL; issues the invoices of the due ids given on stdin as JSON, all at once, through the service the
 * screens use, and prints the numbers it got as JSON.
 */
const ids = JSON.parse(
  await new Promise<string>((resolve) => {
    let text = "";
    process.stdin.on("data", (c) => (text += c));
    process.stdin.on("end", () => resolve(text));
  }),
) as string[];
await openDb(process.env.DATABASE_URL!);
const actor = { user: { id: "instance", name: `Instance ${process.pid}`, email: "instance@test", role: "admin" as const }, ip: "127.0.0.1" };
const results = await Promise.allSettled(ids.map((id) => issueInvoiceNow(actor, id)));
const numbers = results.map((r) => (r.status === "fulfilled" ? r.value.number : `error: ${String((r.reason as Error)?.message ?? r.reason)}`));
await closeDb();
process.stdout.write(JSON.stringify(numbers));
