/**
 * Small jobs every app instance runs on a timer (scheduled publishing, waitlist offers running out, the daily
 * digest). Each instance runs its own copy: a job must be safe to run in several instances at once (a
 * conditional UPDATE, a unique key, a row claimed in a transaction), so no instance has to be "the one".
 * A run never overlaps the previous run of the same job; a failed run is logged (at most once a minute) and the
 * next one tries again. Timers are unref'd and stopPeriodicJobs() waits for runs in flight (shutdown).
 */
type Job = { name: string; everyMs: number; run: () => Promise<void> };
type Running = Job & { timer?: NodeJS.Timeout; inFlight?: Promise<void>; lastErrorLog: number };

const jobs = new Map<string, Running>();

function tick(job: Running, log: (line: string) => void): void {
  if (job.inFlight) return;
  job.inFlight = job
    .run()
    .catch((error: unknown) => {
      if (Date.now() - job.lastErrorLog < 60_000) return;
      job.lastErrorLog = Date.now();
      log(`${job.name}: a run failed: ${error instanceof Error ? error.message : String(error)}`);
    })
    .finally(() => (job.inFlight = undefined));
}

/** Runs `job` once now and then every `everyMs` in this process; starting a job of the same name again replaces it. */
export function startPeriodicJob(job: Job, log: (line: string) => void = console.error): void {
  const previous = jobs.get(job.name);
  if (previous?.timer) clearInterval(previous.timer);
  const running: Running = { ...job, lastErrorLog: 0 };
  jobs.set(job.name, running);
  tick(running, log);
  running.timer = setInterval(() => tick(running, log), job.everyMs);
  running.timer.unref();
}

/** Stops every job's timer and waits for the runs in flight. */
export async function stopPeriodicJobs(): Promise<void> {
  const all = [...jobs.values()];
  jobs.clear();
  for (const job of all) if (job.timer) clearInterval(job.timer);
  await Promise.all(all.map((job) => job.inFlight));
}
