/**
 * Compile cache: compiled artifacts (and compile errors) kept on disk by a
 * hash of (language, exact compiler flags, code), so Run then Submit of the
 * same code, or two identical submissions, compile once. Size-bounded with
 * least-recently-used eviction; identical compiles in flight in this process
 * share one compile.
 *
 * Layout: `<dir>/<key[0..2]>/<key>/meta.json` plus the artifact files `f0`,
 * `f1`, … Entries are written to a temporary directory and renamed into place,
 * so a reader (this or another process sharing DATA_DIR) never sees half an
 * entry; a missing or damaged entry is simply a miss.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** One compiled file to put into a box before running. */
export interface ArtifactFile {
  /** Plain file name inside the box (no `/`). */
  name: string;
  content: Uint8Array;
  /** Unix permission bits, e.g. 0o755 for an executable. */
  mode: number;
}

/** What a compile produced: artifacts on success, the compiler's diagnostics either way. */
export interface CompiledEntry {
  ok: boolean;
  /** Compiler diagnostics (stderr/stdout of the compiler), shown to the submitter. */
  diagnostics: string;
  /** Empty when `ok` is false. */
  files: ArtifactFile[];
  /** Source file name the code was compiled from (the run command needs it, e.g. Java's class). */
  sourceFile: string;
  /** Set only on a result that failed for the system's reasons (sandbox failure); such results are never cached. */
  systemError?: string;
}

interface Meta {
  version: 1;
  ok: boolean;
  diagnostics: string;
  sourceFile: string;
  files: { name: string; mode: number; sizeBytes: number }[];
}

interface IndexEntry {
  sizeBytes: number;
  lastUsedMs: number;
}

/** Bumped whenever the layout or what a key covers changes. */
const FORMAT = "oj-compile-cache-v1";

/** Whose program a cache entry holds: each kind has a key space of its own (`CompileCache.key`). */
export type CompileKind = "submission" | "validator" | "validator-build";

/**
 * @example
 * const cache = await CompileCache.open(join(config.DATA_DIR, "compile-cache"), config.COMPILE_CACHE_MIB * 1024 * 1024);
 * const { entry, hit } = await cache.getOrCompile(cache.key("cpp", flags, code), compileIt);
 */
export class CompileCache {
  private readonly index = new Map<string, IndexEntry>();
  private readonly inFlight = new Map<string, Promise<{ entry: CompiledEntry; hit: boolean }>>();
  /** Jobs whose entry may still be being written to disk. */
  private readonly writes = new Set<Promise<unknown>>();
  private totalBytes = 0;
  /** Counters since open: lookups answered from disk, compiles actually run, entries evicted, failed background writes. */
  readonly stats = { hits: 0, compiles: 0, evictions: 0, writeErrors: 0 };

  private constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  /**
   * Opens (creating) the cache directory and indexes the entries already there,
   * evicting the oldest if they exceed the bound.
   * @param dir      cache directory, normally `<DATA_DIR>/compile-cache`
   * @param maxBytes size bound in bytes (COMPILE_CACHE_MIB × 2^20)
   */
  static async open(dir: string, maxBytes: number): Promise<CompileCache> {
    const cache = new CompileCache(dir, maxBytes);
    await mkdir(dir, { recursive: true });
    for (const shard of await readdir(dir).catch(() => [] as string[])) {
      if (shard.startsWith("tmp-")) {
        // Another process sharing the directory (the import worker beside the server) may be writing it now.
        if (!writerAlive(shard)) await rm(join(dir, shard), { recursive: true, force: true });
        continue;
      }
      const shardDir = join(dir, shard);
      for (const key of await readdir(shardDir).catch(() => [] as string[])) {
        const size = await entrySize(join(shardDir, key));
        if (size === null) {
          await rm(join(shardDir, key), { recursive: true, force: true });
          continue;
        }
        const st = await stat(join(shardDir, key, "meta.json")).catch(() => null);
        cache.index.set(key, { sizeBytes: size, lastUsedMs: st?.mtimeMs ?? 0 });
        cache.totalBytes += size;
      }
    }
    await cache.evict();
    return cache;
  }

  /**
   * The cache key: SHA-256 (hex) over the format version, the kind of program,
   * language id, exact compiler flags and the code. The kind keeps the key
   * spaces apart: a submission's code may be any text (NUL included), so
   * without it a Run whose code spelled a validator's key text would store
   * its own compile under the validator's key (review N10, 2026-11-26).
   * @param kind "submission" for any user's code (Run, submissions, verify's examples);
   *             "validator" / "validator-build" for a problem's own programs.
   */
  key(language: string, compilerFlags: readonly string[], code: string, kind: CompileKind = "submission"): string {
    return createHash("sha256").update(JSON.stringify([FORMAT, kind, language, compilerFlags, code])).digest("hex");
  }

  /** Bytes currently accounted to entries. */
  get sizeBytes(): number {
    return this.totalBytes;
  }

  private entryDir(key: string): string {
    return join(this.dir, key.slice(0, 2), key);
  }

  /** @returns the entry, or null when absent or unreadable (treated as a miss). */
  async get(key: string): Promise<CompiledEntry | null> {
    const dir = this.entryDir(key);
    try {
      const meta = JSON.parse(await readFile(join(dir, "meta.json"), "utf8")) as Meta;
      if (meta.version !== 1) return null;
      const files: ArtifactFile[] = [];
      for (let i = 0; i < meta.files.length; i++) {
        const f = meta.files[i]!;
        const content = new Uint8Array(await readFile(join(dir, `f${i}`)));
        if (content.byteLength !== f.sizeBytes) return null;
        files.push({ name: f.name, mode: f.mode, content });
      }
      const now = new Date();
      await utimes(join(dir, "meta.json"), now, now).catch(() => {});
      const known = this.index.get(key);
      if (known) known.lastUsedMs = now.getTime();
      else {
        const size = meta.files.reduce((s, f) => s + f.sizeBytes, 0) + 512;
        this.index.set(key, { sizeBytes: size, lastUsedMs: now.getTime() });
        this.totalBytes += size;
      }
      return { ok: meta.ok, diagnostics: meta.diagnostics, sourceFile: meta.sourceFile, files };
    } catch {
      return null;
    }
  }

  /** Stores an entry (replacing any), then evicts least-recently-used entries beyond the bound. */
  async put(key: string, entry: CompiledEntry): Promise<void> {
    const meta: Meta = {
      version: 1,
      ok: entry.ok,
      diagnostics: entry.diagnostics,
      sourceFile: entry.sourceFile,
      files: entry.files.map((f) => ({ name: f.name, mode: f.mode, sizeBytes: f.content.byteLength })),
    };
    const size = meta.files.reduce((s, f) => s + f.sizeBytes, 0) + 512;
    if (size > this.maxBytes) return;
    const tmp = join(this.dir, `tmp-${process.pid}-${crypto.randomUUID()}`);
    await mkdir(tmp, { recursive: true });
    try {
      for (let i = 0; i < entry.files.length; i++) await writeFile(join(tmp, `f${i}`), entry.files[i]!.content);
      await writeFile(join(tmp, "meta.json"), JSON.stringify(meta));
      const final = this.entryDir(key);
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await rm(final, { recursive: true, force: true });
      await rename(tmp, final);
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      throw err;
    }
    const old = this.index.get(key);
    if (old) this.totalBytes -= old.sizeBytes;
    this.index.set(key, { sizeBytes: size, lastUsedMs: Date.now() });
    this.totalBytes += size;
    await this.evict();
  }

  /**
   * Returns the cached entry for `key`, or runs `compile` once (identical
   * concurrent requests in this process wait for the same compile) and caches
   * its result when `cacheable` is true (a compile that failed for the system's
   * reasons, e.g. a timeout under load, is not cached).
   *
   * The caller gets the entry as soon as the compile ends; writing it to disk
   * goes on in the background (a Run should not wait for it), while identical
   * requests keep sharing the in-memory result until the write is done, so no
   * second compile can start meanwhile. A failed write only costs a later
   * compile (`stats.writeErrors`); `settled()` waits for pending writes.
   * @returns the entry and whether it came from the cache (or a shared in-flight compile).
   */
  async getOrCompile(
    key: string,
    compile: () => Promise<{ entry: CompiledEntry; cacheable: boolean }>,
  ): Promise<{ entry: CompiledEntry; hit: boolean }> {
    const pending = this.inFlight.get(key);
    if (pending) return { entry: (await pending).entry, hit: true };
    let resolveCompiled!: (value: { entry: CompiledEntry; hit: boolean }) => void;
    const compiled = new Promise<{ entry: CompiledEntry; hit: boolean }>((resolve) => (resolveCompiled = resolve));
    const job = (async () => {
      const cached = await this.get(key);
      if (cached) {
        this.stats.hits++;
        return { entry: cached, hit: true };
      }
      this.stats.compiles++;
      const { entry, cacheable } = await compile();
      resolveCompiled({ entry, hit: false });
      if (cacheable) {
        await this.put(key, entry).catch(() => {
          this.stats.writeErrors++;
        });
      }
      return { entry, hit: false };
    })();
    // Whichever comes first: the compile's result (before its write), or the job's end (a hit, or a thrown compile).
    const result = Promise.race([compiled, job]);
    this.inFlight.set(key, result);
    const done = job.finally(() => {
      if (this.inFlight.get(key) === result) this.inFlight.delete(key);
    });
    this.writes.add(done);
    void done.finally(() => this.writes.delete(done)).catch(() => {});
    return result;
  }

  /** Resolves when every background write started so far has ended (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.writes]);
  }

  private async evict(): Promise<void> {
    if (this.totalBytes <= this.maxBytes) return;
    const byAge = [...this.index.entries()].sort((a, b) => a[1].lastUsedMs - b[1].lastUsedMs);
    for (const [key, e] of byAge) {
      if (this.totalBytes <= this.maxBytes) break;
      await rm(this.entryDir(key), { recursive: true, force: true });
      this.index.delete(key);
      this.totalBytes -= e.sizeBytes;
      this.stats.evictions++;
    }
  }
}

/** Whether the process that named a `tmp-<pid>-<uuid>` entry (`put`) still runs (another process sharing the cache). */
function writerAlive(tmpName: string): boolean {
  const pid = Number(/^tmp-(\d+)-/.exec(tmpName)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Where the judge's compile cache lives and how big it may grow: DATA_DIR/compile-cache, COMPILE_CACHE_MIB (src/config.ts). */
export function compileCacheSettings(config: { DATA_DIR: string; COMPILE_CACHE_MIB: number }): { dir: string; maxBytes: number } {
  return { dir: join(config.DATA_DIR, "compile-cache"), maxBytes: config.COMPILE_CACHE_MIB * 1024 * 1024 };
}

async function entrySize(dir: string): Promise<number | null> {
  try {
    const meta = JSON.parse(await readFile(join(dir, "meta.json"), "utf8")) as Meta;
    return meta.files.reduce((s, f) => s + f.sizeBytes, 0) + 512;
  } catch {
    return null;
  }
}
