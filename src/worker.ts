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
 * queue and exit.
 */
import { migrateDatabase, openDatabase } from "../db/index.ts";
import { createSandbox } from "../isolate/index.ts";
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { JudgeService } from "./judge/service.ts";
import { createLogger } from "./log.ts";
import { lockSandbox, sandboxOptions } from "./sandbox.ts";

/**
 * Starts a worker from a parsed config.
 * @returns `stop()` (gives unfinished jobs back, closes the sandbox and database).
 * @throws Error when no sandbox is usable (a worker without one could only fail jobs).
 */
export async function startWorker(config: Config): Promise<{ judge: JudgeService; stop(): Promise<void> }> {
  const log = createLogger(config.LOG_LEVEL);
  // Box ids are host-wide: beside a server (or another worker) with the same range this stops here.
  const unlockBoxes = lockSandbox(config);
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  await migrateDatabase(db);
  const sandbox = await createSandbox(sandboxOptions(config), (m) => log.info(m));
  if (!sandbox.backend) {
    client.close();
    unlockBoxes();
    throw new Error(`worker: ${sandbox.reason ?? "no sandbox"}`);
  }
  const judge = await JudgeService.create({ config, db, log, sandbox });
  await judge.start();
  log.info("worker: started", { owner: judge.queue.owner, sandbox: sandbox.name });
  return {
    judge,
    async stop() {
      await judge.stop();
      await sandbox.backend?.close();
      client.close();
      unlockBoxes();
    },
  };
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
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    worker = await startWorker(config);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
  const shutdown = async () => {
    await worker.stop();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
