/**
 * LaTeX statements are converted off the request thread: in a worker of its
 * own per statement, with a size cap before it starts and a time cap while it
 * runs. The converter (@unified-latex) can throw from a callback after it
 * returned (a real NWERC 2023 statement with `\textsuperscript{[citation
 * needed]}` does), which in the server's own thread ended the process; in a
 * worker it ends only the worker. A conversion that fails keeps the statement
 * as preformatted text, with a warning for the importer.
 */

/** Largest LaTeX statement converted, bytes (a real statement is a few KiB). */
export const LATEX_MAX_BYTES = 512 * 1024;
/** Longest one conversion may take, ms. */
export const LATEX_TIMEOUT_MS = 10_000;

/**
 * Where the worker's code is: beside this file, or inside the single binary,
 * where scripts/release.ts compiles it in as an entry point of its own under
 * its path from the repository root.
 */
function workerEntry(): string {
  return import.meta.url.includes("$bunfs") ? "./src/packages/latex-worker.ts" : new URL("./latex-worker.ts", import.meta.url).href;
}

export type Conversion = { ok: true; markdown: string } | { ok: false; error: string };

/**
 * Converts `tex` to Markdown in a worker.
 * @returns the Markdown, or why not (too large, the converter failed or crashed, too slow); never throws.
 */
export async function convertLatex(tex: string, timeoutMs = LATEX_TIMEOUT_MS): Promise<Conversion> {
  const bytes = Buffer.byteLength(tex);
  if (bytes > LATEX_MAX_BYTES) return { ok: false, error: `the LaTeX is ${Math.ceil(bytes / 1024)} KiB, over the ${LATEX_MAX_BYTES / 1024} KiB this judge converts` };
  const worker = new Worker(workerEntry());
  try {
    return await new Promise<Conversion>((resolve) => {
      const timer = setTimeout(() => resolve({ ok: false, error: `the conversion took longer than ${timeoutMs / 1000} s` }), timeoutMs);
      worker.onmessage = (event: MessageEvent<Conversion>) => {
        clearTimeout(timer);
        resolve(event.data);
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        clearTimeout(timer);
        resolve({ ok: false, error: `the converter failed: ${String(event.message ?? "unknown error").split("\n").find((l) => l.startsWith("error:")) ?? String(event.message).split("\n")[0]}` });
      };
      worker.postMessage(tex);
    });
  } finally {
    worker.terminate();
  }
}

/** A statement kept as it is: the LaTeX source shown as preformatted text. */
export function preformatted(tex: string): string {
  const longest = Math.max(0, ...[...tex.matchAll(/~+/g)].map((m) => m[0].length));
  const fence = "~".repeat(Math.max(3, longest + 1));
  return `${fence}latex\n${tex.replace(/\r\n?/g, "\n").trimEnd()}\n${fence}\n`;
}
