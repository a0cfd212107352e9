/** What a package import accepts (zod), how a package's faults reach the caller, and the import as a caller asks for it. */
import { setPriority } from "node:os";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import type { SandboxBackend } from "../../isolate/types.ts";
import { deriveImportedTimeLimit } from "./verify-service.ts";
import { authorizeProblemWrite } from "../problems/access.ts";
import { sql } from "drizzle-orm";
import { packageLimits } from "./files.ts";
import type { ProblemCeilings } from "../problems/ceilings.ts";
import type { StorageCeiling } from "../problems/quota-setting.ts";
import { importPackage, type ImportResult } from "./import.ts";
import { idField } from "../lib/fields.ts";
import { listInWords } from "../lib/words.ts";
import { DIFFICULTIES, PYTHON_IMPLEMENTATIONS } from "../problems/limits.ts";
import { PACKAGE_LIMITS, PackageError } from "./files.ts";
import { newId } from "../../db/ids.ts";
import { discardStaged } from "../problems/staged.ts";
import { confineImport, importOutOfMemory } from "./import-memory.ts";
import { describeFailure, rebuildFailure, type ImportJob, type ImportProgress, type ImportReply } from "./import-job.ts";
import { isSandboxCall, sandboxHost, type SandboxCall } from "./sandbox-proxy.ts";

/** Base64 of the zip, at most PACKAGE_LIMITS.zipMaxBytes once decoded. */
const BASE64_MAX_CHARS = Math.ceil(PACKAGE_LIMITS.zipMaxBytes / 3) * 4;

export const packageImportInput = z.object({
  /** The package's zip, base64. */
  package: z
    .string({ error: (iss) => (iss.input === undefined ? "Required (the package's zip)" : "Must be the zip as base64 text") })
    .min(1, { error: "Required" })
    // Its alphabet (BASE64_TEXT) is checked in the import worker: a regex over 85 MiB of text holds the event loop ~¼ s.
    .max(BASE64_MAX_CHARS, { error: `At most ${PACKAGE_LIMITS.zipMaxBytes / (1024 * 1024)} MiB` }),
  courseId: idField().optional(),
  difficulty: z.enum(DIFFICULTIES, { error: `Must be ${listInWords(DIFFICULTIES)}` }).optional(),
  /** What runs Python 3 submissions (where the contest ran Python on PyPy); absent: the package's `languages` decides. */
  pythonImplementation: z.enum(PYTHON_IMPLEMENTATIONS, { error: `Must be ${listInWords(PYTHON_IMPLEMENTATIONS)}` }).optional(),
});

/**
 * Runs a package step; a PackageError becomes 400 BAD_INPUT on the field
 * `package`, its message naming the file and line.
 */
export async function readPackageOrExplain<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof PackageError) throw new AppError("BAD_INPUT", { message: `package: ${err.message}`, field: "package" });
    throw err;
  }
}

/**
 * Imports a package (the zip, base64) as a new problem of `user` (in
 * `courseId` when given: problem.edit there). The unzip, the read and the
 * write of its tests run in a worker (./import-worker.ts), one import at a
 * time per server process, so the event loop keeps serving meanwhile and one
 * package's few hundred MiB are held at most once (review N2).
 * @param ceilings this server's (`config.ceilings`, which carry USER_STORAGE_MAX_MIB too).
 * @returns the problem without its hidden tests (they may be hundreds of MiB), the warnings and example counts.
 * @throws BAD_INPUT (400) naming the package file and line (and the setting that would allow what a ceiling refused),
 *   PAYLOAD_TOO_LARGE (413) past the owner's storage quota or a ceiling, FORBIDDEN (403), RATE_LIMITED (429).
 */
export async function importPackageAs(
  db: Database,
  user: Caller,
  input: z.infer<typeof packageImportInput>,
  limiter: RateLimiter,
  ceilings: ProblemCeilings & Partial<StorageCeiling>,
  /** The judge's sandbox: a package that states no time limit gets one derived from its accepted submissions before this answers. */
  backend: SandboxBackend | null = null,
  /** The judge's compile cache (`compileCacheSettings`), shared with the import worker; null: none. */
  compileCache: { dir: string; maxBytes: number } | null = null,
): Promise<ImportResult> {
  await authorizeProblemWrite(db, user, input.courseId, limiter);
  const options = { courseId: input.courseId, difficulty: input.difficulty, ...(input.pythonImplementation ? { pythonImplementation: input.pythonImplementation } : {}) };
  const databaseUrl = await databaseFileUrl(db);
  // The problem is written staged under this id (../problems/staged.ts): if the import process dies, its row is removed here.
  const stagedId = newId();
  const reply = await inImportWorker(
    { packageBase64: input.package, limits: packageLimits(ceilings, "upload"), ceilings: { ...ceilings }, userId: user.id, options, databaseUrl, stagedId, sandbox: backend?.name ?? null, compileCache },
    backend,
  );
  if (!reply.ok) {
    if (databaseUrl) await discardStaged(db, stagedId);
    return readPackageOrExplain(() => Promise.reject(rebuildFailure(reply.failure)));
  }
  if ("result" in reply) return deriveImportedTimeLimit(db, backend, reply.result);
  // No database file the worker could open: the package it read is stored here.
  const pkg = reply.package;
  const result = await readPackageOrExplain(() => importPackage(db, user.id, pkg, { ...options, ceilings, backend }));
  const { hiddenTestCases: _tests, validator: _validator, ...problem } = result.problem;
  return { ...result, problem };
}

/**
 * The `file:` URL of the database `db` has open (`PRAGMA database_list`: the
 * very file, whatever URL opened it), or null for an in-memory or remote one.
 */
async function databaseFileUrl(db: Database): Promise<string | null> {
  try {
    const rows = await db.all<{ name: string; file: string }>(sql`select name, file from pragma_database_list`);
    const file = rows.find((r) => r.name === "main")?.file;
    return file ? `file:${file}` : null;
  } catch {
    return null;
  }
}

/**
 * How to start the import process: this Bun with the worker's file, or the
 * single binary itself with its `import-worker` subcommand (src/release/binary.ts).
 */
function workerCommand(): string[] {
  return import.meta.url.includes("$bunfs")
    ? [process.execPath, "import-worker"]
    : [process.execPath, "--smol", new URL("./import-worker.ts", import.meta.url).pathname];
}

/** The latest progress of the import running for each user (a Polygon package's generation), in words. */
const progress = new Map<string, string>();

/** How far the import `userId` is running has got (a standard Polygon package's tests being generated), or null. */
export function importProgressOf(userId: string): string | null {
  return progress.get(userId) ?? null;
}

/** The import running now (imports wait for it: one package in memory at a time). */
let importing: Promise<unknown> = Promise.resolve();

/**
 * Runs `job` in a fresh worker (ended afterwards, its memory with it), after
 * the imports already waiting.
 * @returns the worker's reply; a worker that dies answers an internal failure.
 */
export function inImportWorker(job: ImportJob, backend: SandboxBackend | null = null): Promise<ImportReply> {
  const run = importing.then(() => runWorker(job, backend));
  importing = run.catch(() => {});
  return run;
}

/** The import process's niceness (nice(1)): 10, below the server's 0. */
export const IMPORT_NICENESS = 10;

async function runWorker(job: ImportJob, backend: SandboxBackend | null): Promise<ImportReply> {
  let answered: (reply: ImportReply) => void = () => {};
  // The server's boxes lent to the worker (a Polygon package's generators and validators): ./sandbox-proxy.ts.
  let lend: ReturnType<typeof sandboxHost> | null = null;
  const reply = new Promise<ImportReply>((resolve) => (answered = resolve));
  // Its own memory control group (or an rlimit) capped at IMPORT_MEMORY_MAX_MIB: ./import-memory.ts.
  const confinement = await confineImport(workerCommand());
  // --smol: JavaScriptCore's small heap, collected sooner; the package's bytes are the child's to free.
  const child = Bun.spawn(confinement.command, {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "inherit",
    env: process.env,
    ipc: (message: ImportReply | SandboxCall | ImportProgress) => {
      if (isSandboxCall(message)) lend?.handle(message);
      else if ("type" in message) progress.set(job.userId, message.message);
      else answered(message);
    },
    serialization: "advanced",
  });
  if (backend && job.sandbox) lend = sandboxHost(backend, (a) => child.send(a));
  child.exited.then(() => answered({ ok: false, failure: { kind: "internal", message: `the import process ended (${child.signalCode ?? `exit ${child.exitCode}`}) without an answer` } }));
  try {
    // Background work: the import yields the processor to the server's requests (nice 10, about a tenth of
    // the server's share when both want it), so /api/health and judging stay prompt while a package imports.
    setPriority(child.pid, IMPORT_NICENESS);
    // Joined before it is given the package: everything the import allocates counts against the cap.
    confinement.join(child.pid);
    child.send(job);
    const got = await reply;
    if (got.ok || got.failure.kind === "app") return got;
    if (got.failure.kind === "package" || !got.failure.message.startsWith("the import process ended")) {
      // An allocation the runtime refused (rlimit mode) is answered, not a crash (the zip reader words it "broken zip: Out of memory").
      return (await confinement.killedForMemory(null, null, got.failure.message)) ? { ok: false, failure: describeFailure(importOutOfMemory()) } : got;
    }
    await child.exited;
    return (await confinement.killedForMemory(child.signalCode === null ? null : String(child.signalCode), child.exitCode, "")) ? { ok: false, failure: describeFailure(importOutOfMemory()) } : got;
  } finally {
    child.kill("SIGKILL");
    await child.exited;
    progress.delete(job.userId);
    await lend?.releaseAll();
    await confinement.release();
  }
}
