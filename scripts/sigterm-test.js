#!/usr/bin/env node
// Graceful shutdown under load. Starts the built server on a temporary SQLite database, keeps 16 keep-alive
// connections busy with unique enquiries, sends SIGTERM in the middle, and checks that:
//   - no request is cut off: every request gets an answer, or its connection attempt is refused outright
//     (ECONNREFUSED, after the server stopped listening); never a reset or a hang-up mid-request;
//   - every request in flight when SIGTERM arrived is answered with success;
//   - the server exits with code 0 after closing the database, and every acknowledged enquiry is stored.
//
//   node scripts/sigterm-test.js [--rounds 3] [--concurrency 16] [--port 3717]
import fs from "node:fs";
import http from "node:http";
import { acknowledged, enquiryTarget, makeWorkspace, parseArgs, postEnquiry, readBack, startServer } from "./crash-test-lib.js";

const args = parseArgs({ rounds: 3, concurrency: 16, port: 3717, warmAcks: 20, via: "" });
const target = enquiryTarget(args.via);
const PREFIX = "sigterm-";
let failed = false;
let totals = { acknowledged: 0, inFlightAtSigterm: 0, refused: 0, resets: 0, lost: 0 };
console.log(`SIGTERM test: ${args.rounds} rounds, ${args.concurrency} keep-alive connections, POST ${target.path}`);

for (let round = 1; round <= args.rounds; round++) {
  const workspace = makeWorkspace("soc-sigterm-");
  const server = await startServer({ port: args.port, workspace, skipBuildCheck: round > 1 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: args.concurrency });
  const acked = new Set();
  const inFlight = new Set();
  let sigtermAt = 0;
  let inFlightAtSigterm = [];
  const problems = [];
  let refused = 0;

  const worker = async (w) => {
    for (let seq = 0; ; seq++) {
      const email = `${PREFIX}r${round}-w${w}-${seq}@example.com`;
      const startedAt = Date.now();
      inFlight.add(email);
      try {
        const status = await postEnquiry(agent, args.port, target, email);
        if (acknowledged(status, target)) acked.add(email);
        else problems.push(`${email}: status ${status}`);
      } catch (error) {
        const code = error.code ?? error.message;
        // After the listener closed, a new connection is refused before anything is sent: that is the clean end.
        if (code === "ECONNREFUSED" && sigtermAt && startedAt >= sigtermAt) refused++;
        else problems.push(`${email}: ${code}${sigtermAt ? ` (${startedAt - sigtermAt} ms after SIGTERM)` : " (before SIGTERM)"}`);
        return;
      } finally {
        inFlight.delete(email);
      }
    }
  };
  const workers = Array.from({ length: args.concurrency }, (_, w) => worker(w));
  const started = Date.now();
  while (acked.size < args.warmAcks && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200 + Math.random() * 800));
  inFlightAtSigterm = [...inFlight];
  sigtermAt = Date.now();
  server.proc.kill("SIGTERM");
  const { code } = await server.exited;
  const stoppedMs = Date.now() - sigtermAt;
  await Promise.all(workers);
  agent.destroy();

  const { emails, integrity } = readBack(workspace.dbFile, PREFIX);
  const lost = [...acked].filter((e) => !emails.has(e));
  const unanswered = inFlightAtSigterm.filter((e) => !acked.has(e));
  const closedDb = /Closed the database/.test(server.log());
  console.log(
    `round ${round}: exit code ${code} ${stoppedMs} ms after SIGTERM; acknowledged ${acked.size}, in flight at SIGTERM ${inFlightAtSigterm.length} (unanswered ${unanswered.length}), refused after close ${refused}, resets/other errors ${problems.length}, lost ${lost.length}, database closed ${closedDb}, integrity_check ${integrity}`,
  );
  for (const p of problems.slice(0, 10)) console.error(`  ${p}`);
  totals = {
    acknowledged: totals.acknowledged + acked.size,
    inFlightAtSigterm: totals.inFlightAtSigterm + inFlightAtSigterm.length,
    refused: totals.refused + refused,
    resets: totals.resets + problems.length,
    lost: totals.lost + lost.length,
  };
  if (code !== 0 || problems.length || unanswered.length || lost.length || !closedDb || integrity !== "ok") failed = true;
  fs.rmSync(workspace.dir, { recursive: true, force: true });
}

console.log(
  `\nacknowledged ${totals.acknowledged}, in flight at SIGTERM ${totals.inFlightAtSigterm} (all answered: ${!failed}), refused after close ${totals.refused}, resets ${totals.resets}, lost ${totals.lost}, rounds ${args.rounds}`,
);
if (failed) {
  console.error("SIGTERM TEST FAILED");
  process.exit(1);
}
console.log("SIGTERM TEST PASSED");
