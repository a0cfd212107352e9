/**
 * The sandbox contract, in ioi/isolate's vocabulary (see isolate(1)): a pool
 * hands out boxes; a box holds files and runs one command at a time under
 * limits; the result is a typed record. Every backend (isolate, bwrap,
 * unsafe-local) implements `SandboxBackend` and passes the contract suite.
 */

/**
 * Where every backend mounts the precompiled-header directory (read-only) in
 * the box; a language that uses it names this path in its compile flags.
 */
export const PCH_MOUNT = "/pch";

/**
 * Result status of one run. Precedence when several apply (after CMS
 * Sandbox.py): XX > TLE > MLE (an OOM kill) > OLE > SG > RE > OK.
 * - `XX`: the sandbox itself failed: an infrastructure error, never a user verdict.
 */
export type RunStatus = "OK" | "TLE" | "MLE" | "RE" | "SG" | "OLE" | "XX";

export interface RunLimits {
  /** CPU time summed over all threads and processes, ms. */
  cpuTimeLimitMs: number;
  /** Wall-clock time, ms; the whole process tree is killed at this limit. */
  wallTimeLimitMs: number;
  /** Memory (cgroup, or address space where only rlimits exist), KiB. */
  memoryLimitKib: number;
  /** Processes plus threads. */
  processLimit: number;
  /** Bytes of stdout kept; more is OLE with the output capped at this size. */
  outputLimitBytes: number;
  /** Largest file the program may write, KiB. */
  fileSizeLimitKib: number;
  /** Stack size, KiB (default: the smaller of memoryLimitKib and 64 MiB). */
  stackLimitKib?: number;
  /**
   * Where only rlimits exist, enforce memoryLimitKib as an address-space limit
   * (default true). Languages whose runtime reserves far more address space than
   * it uses (the JVM) set false and bound memory themselves (-Xmx).
   */
  addressSpaceLimit?: boolean;
  /**
   * The address-space limit where only rlimits exist, KiB (default memoryLimitKib): a runtime that
   * reserves a fixed amount it never touches adds it here instead of going unbounded (Go: +768 MiB).
   */
  addressSpaceLimitKib?: number;
}

export interface RunRequest extends RunLimits {
  /** argv; argv[0] is resolved inside the box (absolute paths preferred). Never a shell string. */
  argv: string[];
  /** Bytes or text fed to stdin; empty when absent. */
  stdin?: string | Uint8Array;
  /**
   * Instead of `stdin` and a collected stdout: the program's stdin and stdout
   * are these pipe ends (file descriptors of the runner's process), so it can
   * talk with a program in another box (interactive problems; isolate/pipes.ts
   * connects two runs). The caller owns both descriptors and closes them after
   * the run; the backend only hands them to the program. The result's stdout
   * is then "" and `outputLimitBytes` does not apply to it (the other end
   * reads what it is sent).
   */
  pipes?: { stdinFd: number; stdoutFd: number };
  /** Extra environment entries on top of the backend's fixed minimal environment. */
  env?: Record<string, string>;
  /** Bytes of stderr kept (default 64 KiB). */
  stderrLimitBytes?: number;
}

export interface RunResult {
  status: RunStatus;
  /** Which limit caused a TLE. */
  tleKind?: "cpu" | "wall";
  /** Exit code when the program exited normally, else null. */
  exitCode: number | null;
  /** Signal number that killed the program, else null. */
  signal: number | null;
  cpuTimeMs: number;
  wallTimeMs: number;
  /** Peak memory, KiB. */
  memoryKib: number;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  /** Human-readable reason, e.g. isolate's `message` or the backend failure for XX. */
  message?: string;
}

export interface Box {
  /** Box identifier, unique in the pool while acquired. */
  readonly id: number;
  /** Writes a file into the box's working directory (`name` is a plain file name, no `/`). */
  writeFile(name: string, content: string | Uint8Array, mode?: number): Promise<void>;
  /** Reads a regular file from the box; refuses symlinks, FIFOs and anything outside the box. Returns null when absent. */
  readFile(name: string, maxBytes?: number): Promise<Uint8Array | null>;
  /** Runs one command; never throws for the program's misbehaviour (that is the status). */
  run(req: RunRequest): Promise<RunResult>;
  /**
   * Names of the regular files in the box's working directory (no
   * subdirectories, symlinks or FIFOs). Every real backend implements it;
   * Java's compile step needs it to collect the `.class` files.
   */
  listFiles?(): Promise<string[]>;
  /**
   * Removes a name from the box's working directory whatever it is (never
   * following a symlink); absent is fine. Every real backend implements it; a
   * multi-pass validator's `nextpass.in` is removed this way before each pass.
   */
  removeFile?(name: string): Promise<void>;
}

export interface SandboxBackend {
  /** `isolate`, `bwrap` or `unsafe-local`. */
  readonly name: "isolate" | "bwrap" | "unsafe-local";
  /** One line for logs, `/api/health` and doctor, e.g. "bwrap 0.8.0, cgroup v1 (memory, pids, cpuacct)". */
  readonly description?: string;
  /** Waits for a free box, cleans it and hands it out. */
  acquire(): Promise<Box>;
  /**
   * Waits until `count` boxes are free and hands them out together (never
   * holding some while waiting for the rest): a judge that runs the problem's
   * own code (an output validator, an interactor) beside the submission takes
   * two boxes this way, so two such judges cannot deadlock on a small pool.
   * @throws Error when the pool has fewer than `count` boxes.
   */
  acquireMany(count: number): Promise<Box[]>;
  /** Cleans the box and returns it to the pool; always call it (try/finally). */
  release(box: Box): Promise<void>;
  /** Frees every box (on shutdown). */
  close(): Promise<void>;
}
