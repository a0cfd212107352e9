/**
 * What every backend does with a RunRequest before running it: the fixed
 * environment inside the box and the checks that reject malformed requests
 * (programming errors of the caller, never a program's fault).
 */
import type { RunRequest } from "./types.ts";

/** Fixed environment inside the box; `RunRequest.env` adds to it. */
export const BASE_ENV: Readonly<Record<string, string>> = Object.freeze({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/box",
  TMPDIR: "/tmp",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
});

/** Rejects malformed requests (programming errors, not program faults). @throws Error naming the field. */
export function validateRequest(req: RunRequest): void {
  if (!Array.isArray(req.argv) || req.argv.length === 0 || req.argv.some((a) => typeof a !== "string" || a.includes("\0"))) {
    throw new Error("RunRequest.argv must be a non-empty array of strings without NUL");
  }
  for (const k of ["cpuTimeLimitMs", "wallTimeLimitMs", "memoryLimitKib", "processLimit", "outputLimitBytes", "fileSizeLimitKib"] as const) {
    const v = req[k];
    if (!Number.isInteger(v) || v <= 0) throw new Error(`RunRequest.${k} must be a positive integer, got ${v}`);
  }
  for (const k of Object.keys(req.env ?? {})) assertEnvName(k);
  if (req.pipes) {
    if (req.stdin !== undefined && req.stdin.length > 0) throw new Error("RunRequest.stdin must be absent when RunRequest.pipes is given");
    for (const k of ["stdinFd", "stdoutFd"] as const) {
      const fd = req.pipes[k];
      if (!Number.isInteger(fd) || fd < 3) throw new Error(`RunRequest.pipes.${k} must be a descriptor of the runner (3 or more), got ${fd}`);
    }
  }
}

function assertEnvName(name: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid environment variable name: ${JSON.stringify(name)}`);
}
