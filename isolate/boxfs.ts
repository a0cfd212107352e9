/**
 * Safe file operations on a box directory seen from the host, where the
 * runner is more privileged than the program. A program may leave symlinks,
 * FIFOs, devices or directories under any name; these helpers never follow a
 * symlink (O_NOFOLLOW), never block on a FIFO (O_NONBLOCK, regular files only)
 * and never leave the directory (plain names only).
 */
import { constants, promises as fsp } from "node:fs";
import { join } from "node:path";
import { validateRequest } from "./request.ts";
import type { Box, RunRequest, RunResult } from "./types.ts";

/**
 * Validates a plain file name: no `/`, not `.`/`..`, no NUL, 1..255 bytes.
 * @throws Error naming the bad name.
 */
export function assertPlainName(name: string): void {
  if (!name || name === "." || name === ".." || name.includes("/") || name.includes("\0") || Buffer.byteLength(name) > 255) {
    throw new Error(`invalid box file name: ${JSON.stringify(name)}`);
  }
}

/**
 * Writes `content` to `dir/name`, replacing whatever is there (a symlink or
 * FIFO is removed, not followed), then gives it to `owner` (when set) with `mode`.
 */
export async function writeBoxFile(
  dir: string,
  name: string,
  content: string | Uint8Array,
  mode: number,
  owner?: { uid: number; gid: number },
): Promise<void> {
  assertPlainName(name);
  const path = join(dir, name);
  await fsp.rm(path, { recursive: true, force: true });
  const fh = await fsp.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode & 0o777);
  try {
    await fh.writeFile(content);
    if (owner) await fh.chown(owner.uid, owner.gid);
    await fh.chmod(mode & 0o777);
  } finally {
    await fh.close();
  }
}

/**
 * Reads a regular file of the box, at most `maxBytes`. Returns null when the
 * name is absent or is not a regular file (symlink, FIFO, device, directory).
 */
export async function readBoxFile(dir: string, name: string, maxBytes = 64 * 1024 * 1024): Promise<Uint8Array | null> {
  assertPlainName(name);
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ELOOP" || code === "ENXIO" || code === "EISDIR" || code === "EACCES") return null;
    throw err;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return null;
    const size = Math.min(st.size, maxBytes);
    const buf = new Uint8Array(size);
    let off = 0;
    while (off < size) {
      const { bytesRead } = await fh.read(buf, off, size - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return buf.subarray(0, off);
  } finally {
    await fh.close();
  }
}

/** Names of the regular files directly in `dir`. */
export async function listBoxFiles(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
}

/** Removes everything inside `dir` (not `dir` itself), never following symlinks. */
export async function emptyDir(dir: string): Promise<void> {
  const entries = await fsp.readdir(dir).catch(() => [] as string[]);
  await Promise.all(entries.map((e) => fsp.rm(join(dir, e), { recursive: true, force: true })));
}

/**
 * What every backend's box shares: its files live in `dir` on the host and are
 * reached only through the safe helpers above; `run` validates the request and
 * lets one command run at a time. A backend extends it with `execute`.
 * `fileOwner` (uid/gid) owns the files written into the box, for backends that
 * run each box as its own user.
 */
export abstract class DirectoryBox implements Box {
  private busy = false;
  constructor(
    readonly id: number,
    readonly dir: string,
    private readonly fileOwner?: { uid: number; gid: number },
  ) {}
  /**
   * Runs one command in the box.
   * @throws Error for a malformed request (validateRequest) or while another command of this box runs.
   */
  async run(req: RunRequest): Promise<RunResult> {
    validateRequest(req);
    if (this.busy) throw new Error(`box ${this.id} is already running a command`);
    this.busy = true;
    try {
      return await this.execute(req);
    } finally {
      this.busy = false;
    }
  }
  /** The backend's run of a validated request; never throws for the program's misbehaviour. */
  protected abstract execute(req: RunRequest): Promise<RunResult>;
  writeFile(name: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
    return writeBoxFile(this.dir, name, content, mode, this.fileOwner);
  }
  readFile(name: string, maxBytes?: number): Promise<Uint8Array | null> {
    return readBoxFile(this.dir, name, maxBytes);
  }
  listFiles(): Promise<string[]> {
    return listBoxFiles(this.dir);
  }
  async removeFile(name: string): Promise<void> {
    assertPlainName(name);
    // rm never follows a symlink: a link the program left is removed, not its target.
    await fsp.rm(join(this.dir, name), { recursive: true, force: true });
  }
}
