/**
 * A problem package's files, read into memory from a zip (upload) or a folder
 * (the CLI), with the limits that keep a hostile package from exhausting the
 * server: entry names must be plain relative paths (no `..`, no absolute
 * paths, no backslashes: zip-slip), and the bytes actually inflated are
 * counted as they stream (a zip bomb's headers can lie about sizes), per file
 * and in total. Nothing is ever written to disk.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { inflateRawSync } from "node:zlib";
import { Unzip, type FlateError, type UnzipDecoder, type UnzipDecoderConstructor } from "fflate";
import { CEILING_SETTINGS, DEFAULT_CEILINGS, type ProblemCeilings } from "../problems/ceilings.ts";

/** Limits of one package, bytes and files, on a server with the default ceilings (`packageLimits` gives a server's own). */
export const PACKAGE_LIMITS = {
  /** The zip as uploaded over HTTP (held in memory as the request body; larger ones import with the CLI). */
  zipMaxBytes: 64 * 1024 * 1024,
  /** All files after decompression. */
  totalMaxBytes: DEFAULT_CEILINGS.packageBytes,
  /** One file after decompression (a test's input or answer). */
  fileMaxBytes: DEFAULT_CEILINGS.testCaseBytes,
  maxFiles: 5000,
} as const;

/**
 * What an upload may unpack to beyond the hidden tests one problem may store
 * (PROBLEM_TESTS_MAX_MIB), bytes: the statement images (32 MiB at most,
 * ./assets.ts), the statement, samples, a validator and example submissions
 * (2 MiB), and the files an import leaves aside. A package bigger than that
 * could only be stored in part, but would be inflated in whole first.
 */
export const UPLOAD_ALLOWANCE_BYTES = 64 * 1024 * 1024;

/** Limits a reader applies, with what a refusal says would allow more. */
export type PackageLimits = { [K in keyof typeof PACKAGE_LIMITS]: number } & { allowMore?: Partial<Record<"zipMaxBytes" | "totalMaxBytes" | "fileMaxBytes", string>> };

/**
 * A server's package limits: unpacked size and file size from its ceilings
 * (src/problems/ceilings.ts); an upload's zip size stays PACKAGE_LIMITS', and
 * it unpacks to at most one problem's tests (PROBLEM_TESTS_MAX_MIB) plus
 * UPLOAD_ALLOWANCE_BYTES, never above PACKAGE_MAX_MIB (a package read from
 * disk by the CLI has no zip limit but the unpacked one, PACKAGE_MAX_MIB).
 */
export function packageLimits(ceilings: ProblemCeilings, via: "upload" | "disk"): PackageLimits {
  const setting = (key: keyof ProblemCeilings) => `the setting ${CEILING_SETTINGS[key]} allows more`;
  const cli = "a larger package imports on the server with `bun run problem -- import <folder or zip>`";
  const uploadTotal = Math.min(ceilings.packageBytes, ceilings.testsTotalBytes + UPLOAD_ALLOWANCE_BYTES);
  return {
    zipMaxBytes: via === "upload" ? PACKAGE_LIMITS.zipMaxBytes : ceilings.packageBytes,
    totalMaxBytes: via === "upload" ? uploadTotal : ceilings.packageBytes,
    fileMaxBytes: ceilings.testCaseBytes,
    maxFiles: PACKAGE_LIMITS.maxFiles,
    allowMore: {
      zipMaxBytes: via === "upload" ? cli : setting("packageBytes"),
      totalMaxBytes:
        via === "disk"
          ? setting("packageBytes")
          : uploadTotal < ceilings.packageBytes
            ? `an upload unpacks to what one problem's tests may hold, ${CEILING_SETTINGS.testsTotalBytes}, and ${UPLOAD_ALLOWANCE_BYTES / (1024 * 1024)} MiB more; ${cli}`
            : setting("packageBytes"),
      fileMaxBytes: setting("testCaseBytes"),
    },
  };
}

/** " (what allows more)", or nothing. */
function more(limits: PackageLimits, key: "zipMaxBytes" | "totalMaxBytes" | "fileMaxBytes"): string {
  const hint = limits.allowMore?.[key];
  return hint ? ` (${hint})` : "";
}

/** A package problem, naming the file (and line, when known) that causes it. */
export class PackageError extends Error {
  override name = "PackageError";
  constructor(
    readonly file: string,
    message: string,
    readonly line?: number,
  ) {
    super(`${file}${line ? `:${line}` : ""}: ${message}`);
  }
}

/** Package-relative POSIX path → content. */
export type PackageFiles = Map<string, Uint8Array>;

/** A safe relative path (no empty, `.` or `..` segment, no leading `/`, no `\` or NUL), or null. */
function safeName(name: string): string | null {
  if (name.includes("\\") || name.includes("\0") || name.startsWith("/") || /^[a-zA-Z]:/.test(name)) return null;
  const parts = name.split("/").filter((p, i, all) => !(p === "" && i === all.length - 1));
  if (parts.some((p) => p === "" || p === "." || p === "..")) return null;
  return parts.join("/");
}

/** The descriptors a package root holds: the Kattis format's problem.yaml, Polygon's problem.xml. */
const DESCRIPTORS = ["problem.yaml", "problem.xml"];

/**
 * When every file sits under one top folder that holds a descriptor
 * (problem.yaml or problem.xml: a zip of the package's folder), that folder is
 * the package root.
 */
function stripCommonRoot(files: PackageFiles): PackageFiles {
  const tops = new Set([...files.keys()].map((k) => k.split("/")[0]));
  if (DESCRIPTORS.some((d) => files.has(d)) || tops.size !== 1) return files;
  const top = [...tops][0]!;
  if (!DESCRIPTORS.some((d) => files.has(`${top}/${d}`))) return files;
  return new Map([...files].map(([k, v]) => [k.slice(top.length + 1), v]));
}

/**
 * Reads a zip.
 * @throws PackageError for an unsafe entry name, a limit passed, or a broken zip.
 */
export function filesFromZip(zip: Uint8Array, limits: PackageLimits = PACKAGE_LIMITS): PackageFiles {
  if (zip.length > limits.zipMaxBytes) throw new PackageError("(zip)", `the zip is larger than ${limits.zipMaxBytes / (1024 * 1024)} MiB${more(limits, "zipMaxBytes")}`);
  if (zip.length < 4 || zip[0] !== 0x50 || zip[1] !== 0x4b) throw new PackageError("(zip)", "not a zip file");
  // The streaming reader takes entries as they come: a cut-off upload would otherwise import what arrived,
  // a package missing its last test files. The end of the central directory must be there, naming as many entries.
  const declared = declaredEntries(zip);
  if (declared === null) throw new PackageError("(zip)", "the zip is truncated or damaged (no end of central directory): upload it again");
  let entries = 0;
  const files: PackageFiles = new Map();
  let total = 0;
  let failure: PackageError | null = null;
  const unzip = new Unzip();
  // Each file inflates to at most what it may still hold: its own limit, and what is left of the total.
  unzip.register(cappedInflate(() => Math.min(limits.fileMaxBytes, limits.totalMaxBytes - total)));
  unzip.onfile = (file) => {
    entries++;
    if (failure) return;
    if (file.name.endsWith("/")) return; // a directory entry
    const name = safeName(file.name);
    if (!name) {
      failure = new PackageError(file.name, "unsafe path in the zip (absolute, `..` or `\\`): refused");
      return;
    }
    if (files.size >= limits.maxFiles) {
      failure = new PackageError(name, `more than ${limits.maxFiles} files in the package`);
      return;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (err, data, final) => {
      if (failure) return;
      if ((err as unknown) instanceof OverCap) {
        failure =
          limits.fileMaxBytes <= limits.totalMaxBytes - total
            ? new PackageError(name, `larger than ${limits.fileMaxBytes / (1024 * 1024)} MiB once decompressed${more(limits, "fileMaxBytes")}`)
            : new PackageError(name, `the package is larger than ${limits.totalMaxBytes / (1024 * 1024)} MiB once decompressed${more(limits, "totalMaxBytes")}`);
        return;
      }
      if (err) {
        failure = new PackageError(name, `cannot decompress: ${err.message}`);
        return;
      }
      size += data.length;
      total += data.length;
      if (size > limits.fileMaxBytes) {
        failure = new PackageError(name, `larger than ${limits.fileMaxBytes / (1024 * 1024)} MiB once decompressed${more(limits, "fileMaxBytes")}`);
        file.terminate();
        return;
      }
      if (total > limits.totalMaxBytes) {
        failure = new PackageError(name, `the package is larger than ${limits.totalMaxBytes / (1024 * 1024)} MiB once decompressed${more(limits, "totalMaxBytes")}`);
        file.terminate();
        return;
      }
      chunks.push(data);
      if (final) files.set(name, Buffer.concat(chunks));
    };
    file.start();
  };
  try {
    unzip.push(zip, true);
  } catch (err) {
    if (!failure) failure = new PackageError("(zip)", `broken zip: ${(err as Error).message}`);
  }
  if (failure) throw failure;
  if (declared !== "zip64" && entries !== declared) {
    throw new PackageError("(zip)", `the zip is truncated or damaged (its directory lists ${declared} entries, ${entries} were read): upload it again`);
  }
  return stripCommonRoot(files);
}

/** A file's inflated bytes passed what it may hold (the cap `cappedInflate` was given). */
class OverCap extends Error {}

/**
 * A deflate decoder for fflate's Unzip that inflates each file with the
 * runtime's zlib (native: ~10× fflate's speed here) and stops as soon as the
 * output passes `cap()` bytes (zlib's maxOutputLength), so a bomb is never
 * inflated past its limit, whatever its headers claim. A file's compressed
 * bytes are kept until its last chunk (at most the zip's size).
 * @returns the decoder class to `register`; an over-limit file ends with an OverCap error.
 */
function cappedInflate(cap: () => number): UnzipDecoderConstructor {
  return class CappedInflate implements UnzipDecoder {
    static compression = 8;
    ondata: UnzipDecoder["ondata"] = () => {};
    private chunks: Uint8Array[] = [];
    private done = false;
    push(chunk: Uint8Array, final: boolean): void {
      if (this.done) return;
      // fflate may reuse the chunk's buffer after push returns: keep a copy.
      this.chunks.push(chunk.slice());
      if (!final) return;
      this.done = true;
      const limit = cap();
      let out: Buffer;
      try {
        out = inflateRawSync(Buffer.concat(this.chunks), { maxOutputLength: Math.max(1, limit + 1) });
      } catch (err) {
        this.chunks = [];
        const code = (err as { code?: string }).code;
        this.ondata((code === "ERR_BUFFER_TOO_LARGE" ? new OverCap() : err) as FlateError, new Uint8Array(0), true);
        return;
      }
      this.chunks = [];
      if (out.length > limit) this.ondata(new OverCap() as unknown as FlateError, new Uint8Array(0), true);
      else this.ondata(null, new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.length), true);
    }
    terminate(): void {
      this.done = true;
      this.chunks = [];
    }
  };
}

/**
 * The number of entries the zip's end-of-central-directory record declares
 * (APPNOTE 4.3.16: signature 0x06054b50, total entries at offset 10), searched
 * from the end past a comment of up to 65535 bytes.
 * @returns the count, "zip64" when the record defers to ZIP64 (0xFFFF), or null when there is no record.
 */
function declaredEntries(zip: Uint8Array): number | "zip64" | null {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = zip.length - 22; at >= 0 && at >= zip.length - 22 - 65535; at--) {
    if (view.getUint32(at, true) !== 0x06054b50) continue;
    if (at + 22 + view.getUint16(at + 20, true) !== zip.length) continue;
    const total = view.getUint16(at + 10, true);
    return total === 0xffff ? "zip64" : total;
  }
  return null;
}

/**
 * Reads a package folder (the CLI's `problem import PATH`). Symlinks are
 * followed only when they stay inside the folder.
 * @throws PackageError for a symlink leaving the folder or a limit passed.
 */
export function filesFromFolder(dir: string, limits: PackageLimits = PACKAGE_LIMITS): PackageFiles {
  const root = realpathSync(dir);
  const files: PackageFiles = new Map();
  let total = 0;
  const walk = (abs: string) => {
    for (const entry of readdirSync(abs).sort()) {
      const path = join(abs, entry);
      const rel = relative(root, path).split(sep).join("/");
      if (rel.split("/").some((p) => p === ".git")) continue;
      let real = path;
      if (lstatSync(path).isSymbolicLink()) {
        real = realpathSync(path);
        if (real !== root && !real.startsWith(root + sep)) throw new PackageError(rel, "a symlink that leaves the package folder: refused");
      }
      const st = lstatSync(real);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) {
        if (files.size >= limits.maxFiles) throw new PackageError(rel, `more than ${limits.maxFiles} files in the package`);
        if (st.size > limits.fileMaxBytes) throw new PackageError(rel, `larger than ${limits.fileMaxBytes / (1024 * 1024)} MiB${more(limits, "fileMaxBytes")}`);
        total += st.size;
        if (total > limits.totalMaxBytes) throw new PackageError(rel, `the package is larger than ${limits.totalMaxBytes / (1024 * 1024)} MiB${more(limits, "totalMaxBytes")}`);
        files.set(rel, readFileSync(real));
      }
    }
  };
  walk(root);
  return files;
}

/** A file as UTF-8 text (a byte order mark dropped). */
export function text(files: PackageFiles, name: string): string | null {
  const bytes = files.get(name);
  if (!bytes) return null;
  return new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
}
