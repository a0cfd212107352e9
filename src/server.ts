/**
 * The server's entry point. Start-up reads top to bottom: parse the config,
 * open the database, apply migrations, seed the classic problems when missing,
 * choose the sandbox, set up AI review and the judge, build the app, serve.
 * A bad config stops the process with one message naming the variable.
 */
import { privateDir } from "./lib/private-files.ts";
import { join } from "node:path";
import { openDatabase, migrateDatabase } from "../db/index.ts";
import { seedDatabase } from "../db/seed/index.ts";
import { createSandbox } from "../isolate/index.ts";
import { createApp } from "./app.ts";
import { resolveSessionKey } from "./auth/session.ts";
import { ConfigError, exitOnConfigError, loadConfig, type Config } from "./config.ts";
import { buildServices, type Services } from "./context.ts";
import { createLogger, type Logger } from "./log.ts";
import { scheduledBackup } from "./ops/backup.ts";
import { startGradeSync } from "./lti/grades.ts";
import { resumeSimilarityJobs } from "./similarity/jobs.ts";
import { SERVER_LOCK, takeLock } from "./ops/lock.ts";
import { createOpsState, recordingErrors, type OpsState } from "./ops/state.ts";
import { VERSION } from "./version.ts";
import { JudgeService } from "./judge/service.ts";
import { createAiService } from "./ai/service.ts";
import { offeredLanguages } from "./judge/languages.ts";
import { LANGUAGES } from "../isolate/languages/index.ts";
import { lockSandbox, sandboxOptions } from "./sandbox.ts";

/** Bun.serve's request body cap, bytes (the app's own limit, MAX_BODY_BYTES, answers 413 below it). */
const BUN_MAX_BODY_BYTES = 160 * 1024 * 1024;

export interface RunningServer {
  services: Services;
  server: Bun.Server<undefined>;
  /** Stops accepting, closes the sandbox and the database. */
  stop(): Promise<void>;
}

/**
 * Starts the whole server from a parsed config. On failure, whatever was
 * already opened (database, sandbox, judge) is closed again before rethrowing.
 * @throws ConfigError when a combination of keys is unusable (e.g. AI_PROVIDER=gemini without GEMINI_API_KEY).
 * @throws when the database cannot be opened or migrated.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const ops = createOpsState();
  const log = recordingErrors(createLogger(config.LOG_LEVEL), ops);
  // Before anything else: a second server started by mistake on a busy port must
  // stop here, before its sandbox set-up touches the running server's boxes.
  assertPortFree(config);
  const undo: (() => unknown)[] = [];
  try {
    // The data is this server's while it runs: `bun run restore` refuses meanwhile.
    privateDir(config.DATA_DIR);
    const unlock = takeLock(join(config.DATA_DIR, SERVER_LOCK), "server");
    undo.push(unlock);
    const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
    undo.push(() => client.close());
    await migrateDatabase(db);
    const seeded = await seedDatabase(db);
    if (seeded.inserted) log.info(`seed: added ${seeded.inserted} classic problems`);
    const sessionKey = resolveSessionKey(config);
    // Box ids are host-wide: a second judging process with the same range must stop here.
    const unlockBoxes = lockSandbox(config);
    undo.push(unlockBoxes);
    const sandbox = await createSandbox(sandboxOptions(config), (m) => log.info(m));
    undo.push(() => sandbox.backend?.close());
    // Before the judge starts consuming: a bad AI setting (ConfigError) must stop start-up with nothing running.
    const ai = createAiService({ config, db, log, sandbox: sandbox.backend });
    // Judge: re-queues jobs a killed server left behind, then consumes the queue (JUDGE_IN_PROCESS).
    const offered = offeredLanguages(config);
    log.info(`languages: ${offered.ids.map((id) => LANGUAGES[id].name).join(", ") || "none"}`);
    for (const l of offered.left) log.warn(`language ${LANGUAGES[l.id].name} not offered: ${l.why}`);
    const judge = await JudgeService.create({ config, db, log, sandbox, languages: offered.ids });
    undo.push(() => judge.stop());
    if (config.JUDGE_IN_PROCESS) await judge.start();
    const services = buildServices({ config, db, log, sessionKey, sandbox, judge, ai, ops });
    const stopBackups = scheduleBackups(config, ops, log);
    undo.push(stopBackups);
    // LMS grade passback: queues changed scores of linked assignments and posts them (src/lti/grades.ts).
    const gradeSync = startGradeSync(db, log);
    undo.push(() => gradeSync.stop());
    // Similarity reports a stopped process left queued or running are computed again (src/similarity/jobs.ts).
    const resumed = await resumeSimilarityJobs(db, log);
    if (resumed) log.info(`similarity: ${resumed} report(s) queued again`);
    const app = createApp(services);
    let server: ReturnType<typeof Bun.serve>;
    try {
      server = Bun.serve({
        port: config.PORT,
        hostname: config.HOST,
        fetch: app.fetch,
        maxRequestBodySize: BUN_MAX_BODY_BYTES,
        // Seconds without traffic before a connection closes; SSE subscriptions ping every 10 s (src/trpc/init.ts).
        idleTimeout: 60,
      });
    } catch (err) {
      // Taken between the probe and now.
      throw (err as { code?: string }).code === "EADDRINUSE" ? portInUse(config) : err;
    }
    log.info(`listening on http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${server.port} (sandbox: ${sandbox.name})`);
    return {
      services,
      server,
      async stop() {
        stopBackups();
        await gradeSync.stop();
        await server.stop();
        await judge.stop();
        await sandbox.backend?.close();
        client.close();
        unlockBoxes();
        unlock();
      },
    };
  } catch (err) {
    for (const step of undo.reverse()) {
      try {
        await step();
      } catch {
        // Already failing: the original error is the one to report.
      }
    }
    throw err;
  }
}

/**
 * Scheduled backups when BACKUP_DIR is set: every BACKUP_EVERY_HOURS, keeping
 * BACKUP_KEEP; each outcome is logged and kept for the status page.
 * @returns a function that stops the schedule.
 */
function scheduleBackups(config: Config, ops: OpsState, log: Logger): () => void {
  const dir = config.BACKUP_DIR;
  if (!dir) return () => {};
  const take = async () => {
    try {
      // In a child process: the snapshot must not hold this process's event loop.
      const path = await scheduledBackup(config, dir, config.BACKUP_KEEP, VERSION, new Date(), { inChild: true });
      ops.lastBackup = { at: new Date().toISOString(), path, ok: true };
      log.info(`backup: ${path}`);
    } catch (err) {
      ops.lastBackup = { at: new Date().toISOString(), path: dir, ok: false, error: String(err) };
      log.error(`backup failed: ${String(err)}`);
    }
  };
  const timer = setInterval(() => void take(), config.BACKUP_EVERY_HOURS * 3_600_000);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** A port already in use, as the configuration error it is (one clean line naming PORT). */
function portInUse(config: Config): ConfigError {
  return new ConfigError(
    `PORT: ${config.PORT} is already in use on ${config.HOST} (another server running? stop it or choose another PORT)`,
  );
}

/**
 * Probes PORT by listening on it and closing at once.
 * @throws ConfigError when the port is taken (EADDRINUSE).
 */
function assertPortFree(config: Config): void {
  if (config.PORT === 0) return;
  try {
    Bun.listen({ hostname: config.HOST, port: config.PORT, socket: { data() {} } }).stop(true);
  } catch (err) {
    if ((err as { code?: string }).code === "EADDRINUSE") throw portInUse(config);
    throw err;
  }
}

/**
 * `bun src/server.ts`: config from the environment, start, stop cleanly on
 * SIGINT/SIGTERM. A ConfigError, from loadConfig or from start-up, ends the
 * process with exit code 1 and one line naming the variable.
 */
export async function main(env: Record<string, string | undefined> = process.env): Promise<RunningServer> {
  const config = await exitOnConfigError(() => loadConfig(env));
  const running = await exitOnConfigError(() => startServer(config));
  const shutdown = async (signal: string) => {
    running.services.log.info(`${signal}: stopping; submissions being judged go back to the queue and are judged at the next start`);
    await running.stop();
    running.services.log.info("stopped");
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  return running;
}

if (import.meta.main) await main();
