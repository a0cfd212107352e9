/**
 * `bun run worker`: a judge worker without the web server. It consumes the
 * same database queue as the web process's in-process consumer (leases with
 * expiry, so a killed worker's job is taken over), with SANDBOX_POOL_SIZE
 * jobs at once, on the same host and database file as the server. Give each
 * judging process on one host its own ISOLATE_BOX_ID_START range and
 * SANDBOX_ROOT: a clash is refused at start (lockSandbox). Set
 * JUDGE_IN_PROCESS=false on the web server to leave all judging to workers.
 * Judging from other machines over a shared remote database is not a tested setup.
 *
 * Start-up reads top to bottom: config, database (migrated), sandbox, judge
 * service, consume. SIGINT/SIGTERM give the jobs in progress back to the
 * queue, unmount the boxes, release the locks and exit, within
 * SHUTDOWN_TIMEOUT_SECONDS (src/ops/shutdown.ts).
 */
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { createSandbox } from "../isolate/index.ts";
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { JudgeService } from "./judge/service.ts";
import { registerCourseHooks } from "./courses/invites.ts";
import { registerBankHooks } from "./problems/bank/status.ts";
import { createLogger } from "./log.ts";
import { claimSandbox, sandboxOptions } from "./sandbox.ts";
import { runSteps, stopOnSignals, type ShutdownStep } from "./ops/shutdown.ts";
import type { Logger } from "./log.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkServerUrl, HostWorker } from "./judge-hosts/host-worker.ts";
import { LANGUAGE_IDS } from "../isolate/languages/index.ts";

/** A started worker or judge host, stopped by its steps then `release` (src/ops/shutdown.ts). */
export interface RunningWorker {
  log: Logger;
  /** In order: give the jobs being judged back, close the sandbox (boxes, mounts), close the database. */
  stopSteps: readonly ShutdownStep[];
  /** Synchronous, safe twice: unmounts what is left under SANDBOX_ROOT and releases the box locks. */
  release(): void;
  /** stopSteps, then release. */
  stop(): Promise<void>;
}

function running(log: Logger, stopSteps: ShutdownStep[], release: () => void): RunningWorker {
  return {
    log,
    stopSteps,
    release,
    async stop() {
      await runSteps(stopSteps, log);
      release();
    },
  };
}

/**
 * Starts a worker from a parsed config.
 * @returns the judge and how to stop (unfinished jobs go back to the queue; the sandbox and database close).
 * @throws Error when no sandbox is usable (a worker without one could only fail jobs).
 */
export async function startWorker(config: Config): Promise<RunningWorker & { judge: JudgeService }> {
  const log = createLogger(config.LOG_LEVEL);
  // Box ids are host-wide: beside a server (or another worker) with the same range this stops here.
  // Once they are ours, what a killed predecessor left in SANDBOX_ROOT is cleared.
  const claim = claimSandbox(config, (m) => log.info(m));
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  await migrateDatabase(db);
  const sandbox = await createSandbox(sandboxOptions(config), (m) => log.info(m));
  if (!sandbox.backend) {
    client.close();
    claim.release();
    throw new Error(`worker: ${sandbox.reason ?? "no sandbox"}`);
  }
  // What follows a verdict (the gradebook cell, the bank's marks and counters) runs in the process that judged it.
  registerCourseHooks();
  registerBankHooks();
  const judge = await JudgeService.create({ config, db, log, sandbox });
  await judge.start();
  log.info("worker: started", { owner: judge.queue.owner, sandbox: sandbox.name });
  const steps: ShutdownStep[] = [
    { name: "giving the jobs being judged back to the queue", run: () => judge.stop() },
    { name: "closing the sandbox", run: () => sandbox.backend?.close() },
    { name: "closing the database", run: () => client.close() },
  ];
  return { judge, ...running(log, steps, () => claim.release()) };
}

/** The value after `name` on the command line. */
function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * A judge host: claims jobs from `server`'s judge API with the token in
 * --token-file (src/judge-hosts/host-worker.ts), only in --languages when
 * given (e.g. `cpp,py` on a host without a JDK). It holds no database URL (one
 * given is refused) and runs no migration.
 * @throws Error naming what is wrong (a DATABASE_URL, no token file, plain HTTP, no sandbox, a clashing box range).
 */
export async function startHost(config: Config, server: string): Promise<RunningWorker> {
  if (process.env.DATABASE_URL) throw new Error("worker --server: a judge host holds no database credentials: unset DATABASE_URL");
  const tokenFile = flag("--token-file");
  if (!tokenFile) throw new Error("worker --server URL needs --token-file FILE (the token from bun run judge-hosts -- add NAME)");
  const token = readFileSync(tokenFile, "utf8").trim();
  const allowHttp = process.argv.includes("--allow-http");
  const languages = flag("--languages")
    ?.split(",")
    .map((l) => l.trim())
    .filter(Boolean);
  const unknown = languages?.filter((l) => !(LANGUAGE_IDS as readonly string[]).includes(l));
  if (unknown?.length) throw new Error(`worker --languages: unknown ${unknown.join(", ")} (one or more of ${LANGUAGE_IDS.join(", ")})`);
  checkServerUrl(server, allowHttp);
  const log = createLogger(config.LOG_LEVEL);
  const claim = claimSandbox(config, (m) => log.info(m));
  const sandbox = await createSandbox(sandboxOptions(config), (m) => log.info(m));
  if (!sandbox.backend) {
    claim.release();
    throw new Error(`worker: ${sandbox.reason ?? "no sandbox"}`);
  }
  const host = await HostWorker.create({
    server,
    token,
    backend: sandbox.backend,
    cacheDir: join(config.DATA_DIR, "compile-cache"),
    cacheBytes: config.COMPILE_CACHE_MIB * 1024 * 1024,
    capacity: config.SANDBOX_POOL_SIZE,
    log,
    allowHttp,
    ...(languages ? { languages } : {}),
  });
  const done = host.start();
  done.catch((err: unknown) => {
    log.error(`judge host: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
  log.info("judge host: started", { server, capacity: config.SANDBOX_POOL_SIZE, sandbox: sandbox.name });
  const steps: ShutdownStep[] = [
    { name: "handing the jobs being judged back", run: () => host.stop() },
    { name: "closing the sandbox", run: () => sandbox.backend?.close() },
  ];
  return running(log, steps, () => claim.release());
}

if (import.meta.main) {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  let worker: RunningWorker;
  try {
    const server = flag("--server");
    worker = server ? await startHost(config, server) : await startWorker(config);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
  stopOnSignals({
    what: "worker",
    log: worker.log,
    steps: worker.stopSteps,
    lastResort: worker.release,
    deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  });
}
