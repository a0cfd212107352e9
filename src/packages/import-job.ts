/**
 * What crosses between the server and the import worker (./import-worker.ts):
 * the job, the reply, and failures described so the server rebuilds the same
 * PackageError or AppError (the same 4xx) the inline import gave.
 */
import { AppError } from "../errors.ts";
import type { StorageCeiling } from "../problems/quota-setting.ts";
import type { ProblemCeilings } from "../problems/ceilings.ts";
import { PackageError, type PackageLimits } from "./files.ts";
import type { ProblemPackage } from "./format.ts";
import type { ImportOptions, ImportResult } from "./import.ts";

/** One import, as the server hands it over. */
export interface ImportJob {
  /** The zip, base64 (decoded here: 64 MiB of zip is ~85 MiB of text). */
  packageBase64: string;
  limits: PackageLimits;
  ceilings: ProblemCeilings & Partial<StorageCeiling>;
  userId: string;
  options: Omit<ImportOptions, "ceilings">;
  /** The server's database file (`file:` URL), or null: answer with the package read instead of storing it. */
  databaseUrl: string | null;
  /** The id the problem is written under, staged until the import ends (../problems/staged.ts). */
  stagedId: string;
  /**
   * The server's sandbox backend's name when it lends its boxes over IPC (./sandbox-proxy.ts): a Polygon
   * package's generators and validators run there. Null: the server has none (a standard package is refused).
   */
  sandbox?: "isolate" | "bwrap" | "unsafe-local" | null;
  /** The judge's compile cache (src/judge/compile-cache.ts `compileCacheSettings`): a Polygon package's C++ programs are built once per content. */
  compileCache?: { dir: string; maxBytes: number } | null;
}

/** How far a Polygon package's generation is (./polygon/generate.ts), sent by the worker while it works. */
export type ImportProgress = { type: "progress"; message: string };

/** What failed, in a form that crosses to the server. */
export type ImportFailure =
  | { kind: "package"; file: string; message: string; line?: number }
  | { kind: "app"; error: AppError["kind"]; message: string; field?: string; details?: Record<string, unknown>; retryAfterSeconds?: number }
  | { kind: "internal"; message: string };

export type ImportReply = { ok: true; result: ImportResult } | { ok: true; package: ProblemPackage } | { ok: false; failure: ImportFailure };

/** Base64 text as the import takes it (the field `package`); anything else is refused as zod would have refused it. */
export const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;

/** The 400 a `package` that is not base64 text gets (the message the field's zod check gave). */
export function notBase64(): AppError {
  return new AppError("BAD_INPUT", { field: "package", message: "package: Must be the zip as base64 text" });
}

/** Bytes a package would store: its tests, statements, images and example submissions (what ../problems/quota.ts counts). */
export function packageStoredBytes(pkg: ProblemPackage): number {
  let n = Buffer.byteLength(pkg.statement) + Buffer.byteLength(pkg.name);
  for (const t of pkg.tests) n += Buffer.byteLength(t.input) + Buffer.byteLength(t.answer);
  for (const a of pkg.assets) n += a.content.length;
  for (const s of pkg.submissions) n += Buffer.byteLength(s.code);
  for (const text of Object.values(pkg.translations)) n += Buffer.byteLength(text);
  return n;
}

/** A thrown value as an ImportFailure. */
export function describeFailure(err: unknown): ImportFailure {
  if (err instanceof PackageError) {
    // The message already starts with "file:line: "; keep the parts to rebuild the same error.
    const prefix = `${err.file}${err.line ? `:${err.line}` : ""}: `;
    return { kind: "package", file: err.file, message: err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message, ...(err.line ? { line: err.line } : {}) };
  }
  if (err instanceof AppError) {
    return { kind: "app", error: err.kind, message: err.message, ...(err.field ? { field: err.field } : {}), ...(err.details ? { details: err.details } : {}), ...(err.retryAfterSeconds ? { retryAfterSeconds: err.retryAfterSeconds } : {}) };
  }
  return { kind: "internal", message: err instanceof Error ? err.message.split("\n")[0]! : String(err) };
}

/**
 * The error a failure describes, as the worker's step threw it.
 * @returns a PackageError (the caller turns it into 400 on `package`), an AppError, or an Error for an internal failure.
 */
export function rebuildFailure(f: ImportFailure): Error {
  if (f.kind === "package") return new PackageError(f.file, f.message, f.line);
  if (f.kind === "app") return new AppError(f.error, { message: f.message, field: f.field, details: f.details, retryAfterSeconds: f.retryAfterSeconds });
  return new Error(`package import failed: ${f.message}`);
}
