import readline from "node:readline";
import { BudgetExhausted, FILE_CHECK_STEPS, StepBudget } from "./budget.server";
import { detectFileType } from "./detect.server";
import { reencodeImageFile } from "./images.server";
import type { FileCheckLine, FileCheckRequest } from "./jobs.server";

/**
 * The file-check process, started by index.server.ts: it reads one job at a time from standard input (a line of
 * JSON each), answers on standard output (FileCheckLine, one per line) and ends when its input closes (the server
 * stopped, or the runner let it go). Built as an entry of its own (vite.config.ts), so in production it is plain
 * `node build/server/file-check.js`; under tests and `npm run dev` it runs from source. Whatever a file does to it
 * (a loop, a heap run out, a crash in a library), only this process pays: the runner kills it at its deadline.
 */
const say = (id: number, line: FileCheckLine) => process.stdout.write(`${JSON.stringify({ id, ...line })}\n`);

async function run({ id, job }: FileCheckRequest): Promise<void> {
  const steps = new StepBudget(FILE_CHECK_STEPS);
  try {
    if (job.check === "detect") {
      say(id, { detected: await detectFileType(job.file, job.kind, job.originalName, steps, (claimed) => say(id, { claimed })) });
    } else {
      say(id, { reencoded: await reencodeImageFile(job.source, job.target, job.kind, job.ext) });
    }
  } catch (error) {
    say(id, { failed: error instanceof BudgetExhausted ? "budget" : error instanceof Error ? error.name : "error" });
  }
}

// One job at a time: the runner sends the next only after this one's answer.
let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on("line", (text) => {
  queue = queue.then(() => run(JSON.parse(text) as FileCheckRequest));
});
