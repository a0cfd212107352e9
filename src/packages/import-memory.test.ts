/**
 * The import process's memory cap (./import-memory.ts) in both modes, through
 * the real import child (./input.ts `inImportWorker`): a package whose read
 * needs more than IMPORT_MEMORY_MAX_MIB answers the 413 naming the setting,
 * under a control group (where this machine has one) and under the rlimit
 * fallback (as a server without cgroups runs it); within the cap the same
 * child answers.
 */
import { afterAll, expect, test } from "bun:test";
import { bigZip, textOfSize } from "../../tests/packages/big-zip.ts";
import { modernPackage, zipOf } from "../../tests/packages/fixtures.ts";
import { DEFAULT_CEILINGS } from "../problems/ceilings.ts";
import { packageLimits } from "./files.ts";
import { rebuildFailure, type ImportJob } from "./import-job.ts";
import { configureImportMemory, IMPORT_MEMORY_DEFAULT_MIB } from "./import-memory.ts";
import { inImportWorker } from "./input.ts";
import { AppError } from "../errors.ts";

const MIB = 1024 * 1024;
afterAll(() => configureImportMemory(IMPORT_MEMORY_DEFAULT_MIB));

/** 8 tests of 2 × 32 MiB: read whole as text, more than 512 MiB in the child. */
function bigPackage(): Uint8Array {
  const half = textOfSize(32 * MIB - 1024);
  const enc = (s: string) => new TextEncoder().encode(s);
  return bigZip([
    { name: "problem.yaml", content: enc("problem_format_version: 2025-09\nname: Big\nlimits:\n  time_limit: 1\n") },
    { name: "statement/problem.en.md", content: enc("# Big\n\nEcho.\n") },
    { name: "data/sample/1.in", content: enc("1\n") },
    { name: "data/sample/1.ans", content: enc("1\n") },
    ...Array.from({ length: 8 }, (_, i) => [
      { name: `data/secret/${i}.in`, content: half },
      { name: `data/secret/${i}.ans`, content: half },
    ]).flat(),
  ]);
}

const job = (zip: Uint8Array): ImportJob => ({
  packageBase64: Buffer.from(zip).toString("base64"),
  limits: packageLimits(DEFAULT_CEILINGS, "upload"),
  ceilings: DEFAULT_CEILINGS,
  userId: "nobody",
  options: {},
  // No database file: the child answers with the package read (all of it held), storing nothing.
  databaseUrl: null,
  stagedId: "unused",
});

for (const cgroups of [true, false]) {
  test(`past IMPORT_MEMORY_MAX_MIB the import answers 413 naming it (${cgroups ? "control group where available" : "rlimit fallback"}); within it, the same child answers`, async () => {
    const mode = await configureImportMemory(512, { cgroups });
    if (!cgroups) expect(mode.kind).toBe("rlimit");
    const reply = await inImportWorker(job(bigPackage()));
    expect(reply.ok).toBe(false);
    const err = rebuildFailure((reply as { ok: false; failure: never }).failure);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(413);
    expect((err as AppError).field).toBe("package");
    expect(err.message).toContain("IMPORT_MEMORY_MAX_MIB");
    expect(err.message).toContain("512 MiB");
    const small = await inImportWorker(job(zipOf(modernPackage())));
    expect(small.ok).toBe(true);
  }, 180_000);
}
