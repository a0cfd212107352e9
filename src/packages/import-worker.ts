/**
 * The child process that imports one uploaded package (./input.ts starts it,
 * one at a time, and ends it after its answer): base64 → zip → files (inflated natively, stopping at the upload's
 * limits) → the package read (YAML, statements, tests as text) → the problem
 * stored through its own connection to the server's database file, so the
 * hundreds of MiB a package may hold are inflated, decoded and written here,
 * never on the server's event loop. Without a database file to open (an
 * in-memory or remote database) it answers with the package read, and the
 * server stores it as before.
 *
 * A process, not a thread: SQLite's locks are POSIX locks, held per process,
 * so a second connection to the server's file opened from a thread of the
 * server's own process did not take part in its locking; the server's
 * connection then lost sight of rows it had just written (a submission
 * right after an import answered 404). Another process locks the file as
 * `bun run worker` beside the server does.
 *
 * Message in (IPC): `ImportJob`. Message out: `ImportReply`. Every failure is
 * described (never thrown across): a PackageError or AppError is rebuilt by
 * the server as the same 4xx the inline import gave.
 */
import { openDatabase } from "../../db/index.ts";
import { assertStorageQuota } from "../problems/quota.ts";
import { filesFromZip } from "./files.ts";
import { readAnyPackage } from "./read.ts";
import { importPackage } from "./import.ts";
import { BASE64_TEXT, describeFailure, notBase64, packageStoredBytes, type ImportJob, type ImportProgress, type ImportReply } from "./import-job.ts";
import { isSandboxAnswer, sandboxClient, type SandboxAnswer } from "./sandbox-proxy.ts";
import { progressWords } from "./polygon/progress.ts";
import { CompileCache } from "../judge/compile-cache.ts";

/** Answers of the server to this process's box calls (set while a job lends the server's sandbox). */
let sandboxAnswers: ((a: SandboxAnswer) => void) | null = null;


async function run(job: ImportJob): Promise<ImportReply> {
  if (!BASE64_TEXT.test(job.packageBase64)) throw notBase64();
  let files: ReturnType<typeof filesFromZip> | null = filesFromZip(Buffer.from(job.packageBase64, "base64"), job.limits);
  // A Polygon package's programs run in the server's sandbox, lent over IPC (./sandbox-proxy.ts).
  const lent = job.sandbox ? sandboxClient(job.sandbox, (c) => process.send!(c)) : null;
  sandboxAnswers = lent?.answer ?? null;
  const pkg = await readAnyPackage(files, {
    backend: lent?.backend ?? null,
    cache: lent && job.compileCache ? await CompileCache.open(job.compileCache.dir, job.compileCache.maxBytes) : null,
    ceilings: job.ceilings,
    onProgress: (p) => process.send!({ type: "progress", message: progressWords(p) } satisfies ImportProgress),
  });
  // The unpacked files are text now: collect them before the write copies the tests again (peak memory, not speed).
  files = null;
  Bun.gc(true);
  if (!job.databaseUrl) return { ok: true, package: pkg };
  const { db, client } = await openDatabase(job.databaseUrl);
  try {
    // The whole package against the quota (images and examples too); createProblem checks its tests and text again.
    await assertStorageQuota(db, job.userId, packageStoredBytes(pkg), job.ceilings, "package");
    // Staged (../problems/staged.ts): the row, then each test in a short write of its own, shown in one write at the end.
    const result = await importPackage(db, job.userId, pkg, { ...job.options, ceilings: job.ceilings, stagedId: job.stagedId });
    // The answer names what was imported; its hidden tests (up to PROBLEM_TESTS_MAX_MIB) stay in the database.
    const { hiddenTestCases: _tests, validator: _validator, ...problem } = result.problem;
    return { ok: true, result: { ...result, problem } };
  } finally {
    client.close();
  }
}

/** Answers one job; the parent ends this process after the answer. */
async function answer(job: ImportJob): Promise<void> {
  let reply: ImportReply;
  try {
    reply = await run(job);
  } catch (err) {
    reply = { ok: false, failure: describeFailure(err) };
    // Only the first line of an unexpected error crosses to the server (its 500 is logged there): the whole
    // stack goes to this process's stderr, which is the server's.
    if (reply.failure.kind === "internal") console.error("import worker: unexpected failure:", err instanceof Error ? (err.stack ?? err.message) : String(err));
  }
  process.send!(reply);
}

/** Serves the parent's jobs over IPC (`bun src/packages/import-worker.ts`, or `oj import-worker` in the single binary). */
export function serveImportJobs(): void {
  if (!process.send) throw new Error("the import worker runs as a child process with an IPC channel (src/packages/input.ts starts it)");
  process.on("message", (m: ImportJob | SandboxAnswer) => {
    if (isSandboxAnswer(m)) sandboxAnswers?.(m);
    else void answer(m);
  });
  // The server is gone (killed): stop before publishing a problem nobody waits for; its next start removes the staged rows.
  process.on("disconnect", () => process.exit(1));
}

if (import.meta.main) serveImportJobs();
