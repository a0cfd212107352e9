/** Pieces shared by the subprocess-driving backends: capped output collection, killing, bwrap's status file. */
import type { Subprocess } from "bun";
import type { RunRequest } from "../types.ts";

/** Default bytes of stderr kept. */
export const STDERR_LIMIT_BYTES = 64 * 1024;

/**
 * Reads stdout and stderr to the end. Stdout beyond `req.outputLimitBytes`
 * calls `onOverflow` once (the caller kills the run: OLE) and is cut at the
 * limit; stderr beyond its limit is drained and dropped. Decoding is UTF-8,
 * lossy (a program may print bytes that are not text).
 */
export async function collectOutput(
  /** null when stdout is a pipe to another box (RunRequest.pipes): nothing to collect. */
  stdout: ReadableStream<Uint8Array> | null,
  stderr: ReadableStream<Uint8Array>,
  req: Pick<RunRequest, "outputLimitBytes" | "stderrLimitBytes">,
  onOverflow: () => void,
): Promise<{ stdout: string; stderr: string; stdoutTruncated: boolean }> {
  const [out, err] = await Promise.all([
    stdout ? readCapped(stdout, req.outputLimitBytes, onOverflow) : { text: "", truncated: false },
    readCapped(stderr, req.stderrLimitBytes ?? STDERR_LIMIT_BYTES, () => {}),
  ]);
  return { stdout: out.text, stderr: err.text, stdoutTruncated: out.truncated };
}

async function readCapped(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  onOverflow: () => void,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let truncated = false;
  const reader = stream.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    if (kept < limit) {
      const take = Math.min(chunk.length, limit - kept);
      chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
      kept += take;
      if (take < chunk.length && !truncated) {
        truncated = true;
        onOverflow();
      }
    } else if (chunk.length > 0 && !truncated) {
      truncated = true;
      onOverflow();
    }
  }
  const all = new Uint8Array(kept);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return { text: new TextDecoder("utf-8", { fatal: false }).decode(all), truncated };
}

/** SIGKILLs the launched process; the sandbox's own teardown (pid namespace, cgroup loop) takes the rest. */
export function killTree(proc: Subprocess): void {
  try {
    proc.kill("SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * Parses bwrap's --json-status-fd output: one JSON object per line,
 * `{"child-pid": N, ...}` once the sandbox is set up and `{"exit-code": N}`
 * when the program ended. Missing child-pid means set-up failed.
 */
export function parseJsonStatus(text: string): { childPid: number | null; exitCode: number | null } {
  let childPid: number | null = null;
  let exitCode: number | null = null;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const obj = JSON.parse(line) as Record<string, unknown>;
      if (typeof obj["child-pid"] === "number") childPid = obj["child-pid"];
      if (typeof obj["exit-code"] === "number") exitCode = obj["exit-code"];
    } catch {
      // a partial line from a killed bwrap: ignore
    }
  }
  return { childPid, exitCode };
}
