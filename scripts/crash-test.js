#!/usr/bin/env node
// Durability check (DESIGN.md §6: nothing acknowledged is ever lost). Starts the built server on a temporary
// SQLite database with RATE_LIMIT=off, sends unique enquiries over 16 concurrent connections, kill -9s the
// server in the middle of the load, restarts it, and checks that every enquiry the server acknowledged is in
// the database and that PRAGMA integrity_check says ok. Repeats for --rounds (default 5) on the same file.
//
//   node scripts/crash-test.js [--rounds 5] [--concurrency 16] [--port 3716] [--via api|form] [--keep]
//   BUILD_DIR=build-x node scripts/crash-test.js      (uses, and if needed makes, that build)
import fs from "node:fs";
import http from "node:http";
import { acknowledged, enquiryTarget, makeWorkspace, parseArgs, postEnquiry, readBack, startServer } from "./crash-test-lib.js";

const args = parseArgs({ rounds: 5, concurrency: 16, port: 3716, warmAcks: 20, minLoadMs: 200, maxLoadMs: 2000, via: "", keep: "" });
const target = enquiryTarget(args.via);
const workspace = makeWorkspace("soc-crash-");
const PREFIX = "crash-";
console.log(`Crash test: ${args.rounds} rounds, ${args.concurrency} connections, POST ${target.path}, database ${workspace.dbFile}`);

const acked = new Set();
const rounds = [];
let failed = false;
let server = await startServer({ port: args.port, workspace, skipBuildCheck: false });

for (let round = 1; round <= args.rounds; round++) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: args.concurrency });
  let sent = 0;
  let ackedThisRound = 0;
  let running = true;
  const worker = async (w) => {
    for (let seq = 0; running; seq++) {
      const email = `${PREFIX}r${round}-w${w}-${seq}@example.com`;
      sent++;
      try {
        const status = await postEnquiry(agent, args.port, target, email);
        if (acknowledged(status, target)) {
          acked.add(email);
          ackedThisRound++;
        } else if (status !== 503) {
          console.error(`Unexpected status ${status} for ${email}`);
          failed = true;
        }
      } catch {
        return; // the server is gone: this request was never acknowledged
      }
    }
  };
  const workers = Array.from({ length: args.concurrency }, (_, w) => worker(w));
  // Kill only once the load is really flowing (a fresh process answers its first requests slowly),
  // then at a random moment, so the kill lands between, during and right after commits.
  const started = Date.now();
  while (ackedThisRound < args.warmAcks && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20));
  const loadMs = args.minLoadMs + Math.random() * (args.maxLoadMs - args.minLoadMs);
  await new Promise((r) => setTimeout(r, loadMs));
  server.proc.kill("SIGKILL");
  const { signal } = await server.exited;
  running = false;
  await Promise.all(workers);
  agent.destroy();

  server = await startServer({ port: args.port, workspace, skipBuildCheck: true });
  const { emails, integrity } = readBack(workspace.dbFile, PREFIX);
  const lost = [...acked].filter((e) => !emails.has(e));
  const unacknowledgedButStored = [...emails].filter((e) => e.startsWith(`${PREFIX}r${round}-`) && !acked.has(e)).length;
  rounds.push({
    round,
    loadMs: Math.round(loadMs),
    sent,
    acknowledged: ackedThisRound,
    lost: lost.length,
    unacknowledgedButStored,
    integrity,
    killedBy: signal,
  });
  console.log(
    `round ${round}: killed (${signal}) ${Math.round(loadMs)} ms into full load; sent ${sent}, acknowledged ${ackedThisRound}, lost ${lost.length} (all rounds), stored without answer ${unacknowledgedButStored}, integrity_check ${integrity}`,
  );
  if (lost.length) console.error(`  lost: ${lost.slice(0, 10).join(", ")}${lost.length > 10 ? " …" : ""}`);
  if (lost.length || integrity !== "ok" || signal !== "SIGKILL") failed = true;
}

server.proc.kill("SIGTERM");
await server.exited;
const final = readBack(workspace.dbFile, PREFIX);
const lostTotal = [...acked].filter((e) => !final.emails.has(e)).length;
console.log(`\nacknowledged ${acked.size}, lost ${lostTotal}, rounds ${rounds.length}, final integrity_check ${final.integrity}`);
if (!args.keep) fs.rmSync(workspace.dir, { recursive: true, force: true });
if (failed || lostTotal || final.integrity !== "ok" || acked.size === 0) {
  console.error("CRASH TEST FAILED");
  process.exit(1);
}
console.log("CRASH TEST PASSED");
