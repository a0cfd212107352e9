/**
 * The worker that converts one LaTeX statement (src/packages/latex.ts starts
 * it): the converter's own failures, thrown now or later from its callbacks,
 * end this worker, never the server.
 * Message in: the LaTeX text. Message out: `{ ok: true, markdown }` or `{ ok: false, error }`.
 */
import { latexToMarkdown } from "./statement.ts";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<string>) => {
  let reply: { ok: true; markdown: string } | { ok: false; error: string };
  try {
    reply = { ok: true, markdown: latexToMarkdown(event.data) };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message.split("\n")[0]! : String(err) };
  }
  // A converter callback that throws after returning (unified-latex does on `\textsuperscript{[x]}`) ends this
  // worker before the answer goes out: the caller then sees the worker's error, not a half-converted text.
  await new Promise((resolve) => setTimeout(resolve, 0));
  self.postMessage(reply);
};
