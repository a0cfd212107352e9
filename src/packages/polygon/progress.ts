/** A Polygon package's generation progress (./generate.ts) in words, for the CLI and the import's progress. */
import type { GenerationProgress } from "./generate.ts";

export function progressWords(p: GenerationProgress): string {
  return p.phase === "build" ? `building ${p.program}` : `test ${p.done} of ${p.total} generated and validated`;
}
