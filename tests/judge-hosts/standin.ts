/**
 * A deterministic stand-in sandbox for judge-host fault tests, where real
 * compiles would make 500 jobs slow: it implements the SandboxBackend
 * contract in memory and "runs" Python sources by their directives:
 *
 *   # standin: echo          prints its stdin (AC on an echo problem)
 *   # standin: wrong         prints "wrong" (WA)
 *   # standin-ms: 80         each run takes 80 ms of wall time
 *
 * The compile step (Python's syntax check, argv with `-c`) succeeds at once.
 * Nothing is executed: the stand-in never runs the code it is given.
 */
import type { Box, RunRequest, RunResult, SandboxBackend } from "../../isolate/types.ts";

function result(stdout: string, ms: number): RunResult {
  return { status: "OK", exitCode: 0, signal: null, cpuTimeMs: ms, wallTimeMs: ms, memoryKib: 1024, stdout, stderr: "", stdoutTruncated: false };
}

class StandinBox implements Box {
  private files = new Map<string, Uint8Array>();
  constructor(readonly id: number) {}
  async writeFile(name: string, content: string | Uint8Array): Promise<void> {
    this.files.set(name, typeof content === "string" ? new TextEncoder().encode(content) : content);
  }
  async readFile(name: string): Promise<Uint8Array | null> {
    return this.files.get(name) ?? null;
  }
  async listFiles(): Promise<string[]> {
    return [...this.files.keys()];
  }
  async run(req: RunRequest): Promise<RunResult> {
    if (req.argv.includes("-c")) return result("", 1);
    const source = new TextDecoder().decode(this.files.get(req.argv.at(-1)!) ?? new Uint8Array());
    const ms = Number(/# standin-ms: (\d+)/.exec(source)?.[1] ?? 0);
    await Bun.sleep(ms);
    const stdin = typeof req.stdin === "string" ? req.stdin : new TextDecoder().decode(req.stdin ?? new Uint8Array());
    return result(/# standin: echo/.test(source) ? stdin : "wrong\n", ms);
  }
  clear(): void {
    this.files.clear();
  }
}

/** A pool of `size` stand-in boxes. */
export function standinBackend(size: number): SandboxBackend {
  const free = Array.from({ length: size }, (_, i) => new StandinBox(i));
  const waiting: ((b: StandinBox) => void)[] = [];
  return {
    name: "unsafe-local",
    description: "stand-in (tests only: runs nothing)",
    async acquire() {
      const box = free.pop();
      if (box) return box;
      return new Promise<Box>((resolve) => waiting.push(resolve as (b: StandinBox) => void));
    },
    async acquireMany(count) {
      const boxes: Box[] = [];
      for (let i = 0; i < count; i++) boxes.push(await this.acquire());
      return boxes;
    },
    async release(box) {
      (box as StandinBox).clear();
      const next = waiting.shift();
      if (next) next(box as StandinBox);
      else free.push(box as StandinBox);
    },
    async close() {},
  };
}
