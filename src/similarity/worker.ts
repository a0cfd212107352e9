/**
 * The worker that runs one similarity analysis (./jobs.ts starts it), so the
 * server's thread keeps answering while 1,000 programs are compared.
 * Message in: WorkerTask. Messages out: `{ type: "progress", done }` (0..1),
 * then `{ type: "done", analysis }` or `{ type: "error", error }`.
 */
import { analyse, type Analysis, type EngineOptions, type Program, type Template } from "./engine.ts";

declare const self: Worker;

export interface WorkerTask {
  programs: Program[];
  templates: Template[];
  options: EngineOptions;
}

export type WorkerMessage = { type: "progress"; done: number } | { type: "done"; analysis: Analysis } | { type: "error"; error: string };

self.onmessage = async (event: MessageEvent<WorkerTask>) => {
  const { programs, templates, options } = event.data;
  let last = 0;
  try {
    const analysis = await analyse(programs, templates, options, (done) => {
      const now = performance.now();
      if (now - last < 200) return;
      last = now;
      self.postMessage({ type: "progress", done } satisfies WorkerMessage);
    });
    self.postMessage({ type: "done", analysis } satisfies WorkerMessage);
  } catch (err) {
    self.postMessage({ type: "error", error: err instanceof Error ? err.message.split("\n")[0]! : String(err) } satisfies WorkerMessage);
  }
};
