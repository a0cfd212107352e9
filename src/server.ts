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
import { handleResetRequests } from "./accounts/password-forgot.ts";
import { startMailSender } from "./mail/sender.ts";
import { queueNoticeMails } from "./notifications/mail.ts";
import { startNotificationScan } from "./notifications/scan.ts";
import { mailConfigured } from "./mail/settings.ts";
import { resumeSimilarityJobs } from "./similarity/jobs.ts";
import { SERVER_LOCK, takeLock } from "./ops/lock.ts";
import { createOpsState, recordingErrors, type OpsState } from "./ops/state.ts";
import { VERSION } from "./version.ts";
import { JudgeService } from "./judge/service.ts";
import { createAiService } from "./ai/service.ts";
import { offeredLanguages } from "./judge/languages.ts";
import { LANGUAGES } from "../isolate/languages/index.ts";
import { claimSandbox, sandboxOptions } from "./sandbox.ts";
import { stopOnSignals, runSteps, type ShutdownStep } from "./ops/shutdown.ts";
import { discardAllStaged } from "./problems/staged.ts";
import { configureImportMemory } from "./packages/import-memory.ts";

/** Bun.serve's request body cap, bytes (the app's own limit, MAX_BODY_BYTES, answers 413 below it). */
const BUN_MAX_BODY_BYTES = 160 * 1024 * 1024;

/**
 * At shutdown, how long requests in flight get to finish before every
 * connection is closed, ms. Live streams (SSE) never end by themselves and a
 * slow upload may not either: without a cut, one open browser tab kept a
 * SIGTERM'd server alive until its manager's SIGKILL.
 */
const HTTP_DRAIN_MS = 3000;

export interface RunningServer {
  services: Services;
  server: Bun.Server<undefined>;
  /**
   * The clean shutdown, in order: stop accepting connections; stop the judge
   * (no new claims; jobs being judged are aborted between steps and go back to
   * the queue); let requests in flight finish for HTTP_DRAIN_MS, then close
   * every connection; stop backups and grade passback; close the sandbox
   * (its boxes and mounts) and the database.
   */
  stopSteps: readonly ShutdownStep[];
  /**
   * Synchronous, safe to call twice, and all that runs when a step hangs past
   * SHUTDOWN_TIMEOUT_SECONDS: unmounts what is left under SANDBOX_ROOT and
   * releases the box locks and DATA_DIR's server lock.
   */
  release(): void;
  /** stopSteps, then release (tests and callers without signals). */
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
    // Package imports: what a killed import left staged is removed; how the import process's memory is capped is said once.
    // (Configuring first ends what import a killed predecessor left running in its control group.)
    const importMemory = await configureImportMemory(config.IMPORT_MEMORY_MAX_MIB);
    if (importMemory.kind === "cgroup") log.info(`import: memory capped at ${config.IMPORT_MEMORY_MAX_MIB} MiB by ${importMemory.why}`);
    else log.warn(`import: ${importMemory.why}; run the server as root on a host with cgroup v1 or v2 memory control for an exact cap of ${config.IMPORT_MEMORY_MAX_MIB} MiB`);
    const staged = await discardAllStaged(db);
    if (staged) log.info(`import: removed ${staged} problem(s) a stopped import left unfinished`);
    const sessionKey = resolveSessionKey(config);
    // Box ids are host-wide: a second judging process with the same range must stop here. Once they are
    // ours, what a killed predecessor left in SANDBOX_ROOT (mounts, box folders) is cleared.
    const claim = claimSandbox(config, (m) => log.info(m));
    undo.push(() => claim.release());
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
    // Mail (src/mail): the outbox's sender, and "forgot password" requests turned into mail before each round.
    // Notices' e-mails (src/notifications/mail.ts) are composed and queued before each round too.
    const mail = mailConfigured(config)
      ? startMailSender(
          { db, config, log },
          {
            beforeRound: async () => {
              await handleResetRequests({ db, config, now: services.now });
              await queueNoticeMails({ db, config, sessionKey, now: services.now });
            },
          },
        )
      : null;
    if (mail) {
      services.mail = mail;
      undo.push(() => mail.stop());
      mail.kick();
    }
    // Notices the clock brings (assignment opened, due soon, contest starting), every NOTIFY_SCAN_SECONDS.
    const scan = startNotificationScan({ db, now: services.now, mail: mailConfigured(config) }, config.NOTIFY_SCAN_SECONDS * 1000, (err) =>
      log.error("notification scan failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
    undo.push(() => scan.stop());
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
    let drained: Promise<void> = Promise.resolve();
    const stopSteps: ShutdownStep[] = [
      // Not awaited: the port closes at once, the connections' drain is awaited after the judge has stopped.
      { name: "closing the port", run: () => void (drained = server.stop().catch(() => {})) },
      { name: "giving the jobs being judged back to the queue", run: () => judge.stop() },
      {
        name: "closing connections",
        run: async () => {
          await Promise.race([drained, Bun.sleep(HTTP_DRAIN_MS)]);
          await server.stop(true);
        },
      },
      { name: "stopping backups and grade passback", run: () => (stopBackups(), gradeSync.stop()) },
      { name: "stopping the notification scan", run: () => scan.stop() },
      { name: "stopping the mail sender (what it holds is sent after the restart)", run: () => mail?.stop() },
      { name: "closing the sandbox", run: () => sandbox.backend?.close() },
      { name: "closing the database", run: () => client.close() },
    ];
    const release = () => {
      try {
        claim.release();
      } finally {
        unlock();
      }
    };
    return {
      services,
      server,
      stopSteps,
      release,
      async stop() {
        await runSteps(stopSteps, log);
        release();
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
 * SIGINT/SIGTERM within SHUTDOWN_TIMEOUT_SECONDS (src/ops/shutdown.ts; exit 0,
 * or 1 past the deadline or at a second signal, with the mounts and locks
 * released either way). A ConfigError, from loadConfig or from start-up,
 * ends the process with exit code 1 and one line naming the variable.
 */
export async function main(env: Record<string, string | undefined> = process.env): Promise<RunningServer> {
  const config = await exitOnConfigError(() => loadConfig(env));
  const running = await exitOnConfigError(() => startServer(config));
  stopOnSignals({
    what: "server",
    log: running.services.log,
    steps: running.stopSteps,
    lastResort: running.release,
    deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  });
  return running;
}

if (import.meta.main) await main();
