/**
 * The server's sandbox lent to the import process (./import-worker.ts) over
 * its IPC channel, so a Polygon package's generators, validators and main
 * solution (./polygon/generate.ts) run in the judge's own pool, in its queue
 * (`acquire` waits for a free box, as a submission's judge does), while the
 * orchestration and the tests it makes stay in the import process, never on
 * the server's event loop. The worker sees a SandboxBackend whose boxes are
 * the server's; the server runs each box call and answers. Boxes the worker
 * still holds when it ends are released by the server (`releaseAll`).
 *
 * Messages: worker → server `SandboxCall`; server → worker `SandboxAnswer`.
 */
import type { Box, RunRequest, SandboxBackend } from "../../isolate/types.ts";

type Op =
  | { op: "acquire" }
  | { op: "release"; box: number }
  | { op: "writeFile"; box: number; name: string; content: string | Uint8Array; mode?: number }
  | { op: "readFile"; box: number; name: string; maxBytes?: number }
  | { op: "run"; box: number; req: Omit<RunRequest, "pipes"> }
  | { op: "listFiles"; box: number }
  | { op: "removeFile"; box: number; name: string };

/** One box call from the import process. */
export type SandboxCall = { type: "sandbox"; id: number } & Op;
/** Its answer. */
export type SandboxAnswer = { type: "sandbox-answer"; id: number; ok: true; value: unknown } | { type: "sandbox-answer"; id: number; ok: false; message: string };

export const isSandboxCall = (m: unknown): m is SandboxCall => !!m && typeof m === "object" && (m as { type?: unknown }).type === "sandbox";
export const isSandboxAnswer = (m: unknown): m is SandboxAnswer => !!m && typeof m === "object" && (m as { type?: unknown }).type === "sandbox-answer";

/**
 * The server's side: runs the worker's box calls on `backend`.
 * @param send sends an answer to the worker (its IPC channel).
 */
export function sandboxHost(backend: SandboxBackend, send: (a: SandboxAnswer) => void) {
  const boxes = new Map<number, Box>();
  const box = (id: number) => {
    const b = boxes.get(id);
    if (!b) throw new Error(`box ${id} is not held by this import`);
    return b;
  };
  async function perform(c: SandboxCall): Promise<unknown> {
    switch (c.op) {
      case "acquire": {
        const b = await backend.acquire();
        boxes.set(b.id, b);
        return b.id;
      }
      case "release": {
        const b = box(c.box);
        boxes.delete(c.box);
        return backend.release(b);
      }
      case "writeFile":
        return box(c.box).writeFile(c.name, c.content, c.mode);
      case "readFile":
        return box(c.box).readFile(c.name, c.maxBytes);
      case "run":
        // Never pipes: descriptors do not cross processes.
        return box(c.box).run({ ...c.req, pipes: undefined });
      case "listFiles":
        return box(c.box).listFiles?.() ?? [];
      case "removeFile":
        return box(c.box).removeFile?.(c.name);
    }
  }
  return {
    handle(c: SandboxCall): void {
      perform(c).then(
        (value) => send({ type: "sandbox-answer", id: c.id, ok: true, value: value ?? null }),
        (err: unknown) => send({ type: "sandbox-answer", id: c.id, ok: false, message: err instanceof Error ? err.message : String(err) }),
      );
    },
    /** Gives back every box the worker still holds (it ended, or was killed). */
    async releaseAll(): Promise<void> {
      const held = [...boxes.values()];
      boxes.clear();
      for (const b of held) await backend.release(b).catch(() => {});
    },
  };
}

/**
 * The worker's side: a SandboxBackend whose calls go to the server.
 * @param name the server's backend's name.
 * @param send sends a call to the server (`process.send`).
 * @returns the backend and `answer`, to be given every SandboxAnswer the process receives.
 */
export function sandboxClient(name: SandboxBackend["name"], send: (c: SandboxCall) => void): { backend: SandboxBackend; answer: (a: SandboxAnswer) => void } {
  let next = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const call = <T>(op: Op): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      send({ type: "sandbox", id, ...op });
    });
  const boxOf = (id: number): Box => ({
    id,
    writeFile: (name, content, mode) => call({ op: "writeFile", box: id, name, content, mode }),
    readFile: async (name, maxBytes) => {
      const v = await call<Uint8Array | null>({ op: "readFile", box: id, name, maxBytes });
      return v ? new Uint8Array(v) : null;
    },
    run: (req) => {
      if (req.pipes) return Promise.reject(new Error("a lent box runs without pipes"));
      return call({ op: "run", box: id, req });
    },
    listFiles: () => call({ op: "listFiles", box: id }),
    removeFile: (name) => call({ op: "removeFile", box: id, name }),
  });
  const backend: SandboxBackend = {
    name,
    description: `the server's ${name} sandbox, lent to the import process`,
    acquire: async () => boxOf(await call<number>({ op: "acquire" })),
    acquireMany: () => Promise.reject(new Error("the import process takes one box at a time")),
    release: (b) => call({ op: "release", box: b.id }),
    close: async () => {},
  };
  return {
    backend,
    answer(a) {
      const w = waiting.get(a.id);
      if (!w) return;
      waiting.delete(a.id);
      if (a.ok) w.resolve(a.value);
      else w.reject(new Error(a.message));
    },
  };
}
