/**
 * The solving page's calls to the judge and the reviewer, kept apart from
 * the page so the page only deals in display states.
 *
 * - `runOnce`: judge.run (compile + one run, on custom input or the sample).
 * - `submitAndFollow`: submissions.create, then the submissions.progress subscription
 *   (SSE) until the verdict; if the stream breaks, submissions.wait finishes the job.
 * - `requestReview`: the AI review, streamed when the server streams it.
 * - `runFailureState`: maps a failed call to what the output panel shows
 *   (the product's error rule: a message mentioning error, syntax, compilation or expected): a compile error gets the syntax-error headline plus the
 *   compiler's diagnostics; other failures show the server's message.
 */
import { TRPCClientError } from "@trpc/client";
import type { OutputState, RunOutcome, SubmissionProgress, TestRow } from "../components/OutputPanel.tsx";
import { appDetailsOf, httpStatusOf, type RouterInputs, type RouterOutputs } from "./trpc.ts";
import type { makeTrpcClient } from "./trpc.ts";
import { translate } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

type Client = ReturnType<typeof makeTrpcClient>;
type RunInput = RouterInputs["judge"]["run"];
type SubmitInput = RouterInputs["submissions"]["create"];
type Submission = RouterOutputs["submissions"]["wait"];

/** Runs the code once. @returns the run's outcome plus `correct` when `expectedOutput` was sent. */
export async function runOnce(client: Client, input: RunInput): Promise<RunOutcome & { correct?: boolean }> {
  const r = await client.judge.run.mutate(input);
  return {
    output: r.output,
    stderr: r.stderr,
    verdict: r.verdict,
    exitCode: r.exitCode,
    timeMs: r.timeMs,
    memoryKib: r.memoryKib,
    correct: r.correct,
  };
}

/** @returns the error catalogue name (`error.data.app.kind`) of a failed tRPC call, or null. */
function appKindOf(err: unknown): string | null {
  if (!(err instanceof TRPCClientError)) return null;
  const data: unknown = err.data;
  const kind = data && typeof data === "object" && "app" in data ? (data.app as { kind?: unknown } | undefined)?.kind : undefined;
  return typeof kind === "string" ? kind : null;
}

const isCompileError = (err: unknown) => appKindOf(err) === "COMPILATION_ERROR";

/** True when the reviewer refused blank code (AI_EMPTY_CODE). */
export const isEmptyCodeError = (err: unknown) => appKindOf(err) === "AI_EMPTY_CODE";

/**
 * @returns the output panel's state for a failed run or submit (the product's error rule):
 * compile errors get the headline and diagnostics; otherwise the server's
 * message, the error's own message, or `Something went wrong.` (in the interface's language).
 */
export function runFailureState(err: unknown): OutputState {
  if (isCompileError(err)) {
    const diagnostics = appDetailsOf(err)?.compileOutput;
    return { kind: "compileError", diagnostics: typeof diagnostics === "string" ? diagnostics : "" };
  }
  if (err instanceof Error) return { kind: "error", message: err.message || translate(common, "judging.somethingWrong") };
  if (typeof err === "string") return { kind: "error", message: err };
  return { kind: "error", message: translate(common, "judging.unexpected") };
}

function testRows(tests: readonly { index: number; isSample: boolean; verdict: string; timeMs: number; memoryKib: number }[]): TestRow[] {
  return tests.map((t) => ({ index: t.index, isSample: t.isSample, verdict: t.verdict, timeMs: t.timeMs, memoryKib: t.memoryKib }));
}

/** @returns the progress view of a finished (or still running) submission. */
export function progressOfSubmission(s: Submission): SubmissionProgress {
  const done = s.status === "done";
  return {
    status: s.status,
    testsDone: s.tests.length,
    // Null when the feedback policy shows only the verdict: shown as no count.
    testsTotal: s.testsTotal ?? 0,
    tests: testRows(s.tests),
    verdict: done ? s.verdict : null,
    compileOutput: s.compileOutput,
    firstFailure: s.firstFailure ?? null,
    score: s.score,
    maxScore: s.maxScore,
    groups: s.groups,
  };
}

/**
 * Submits and follows the judging live.
 * @param onProgress called with every new progress state
 * @returns the judged submission
 * @throws the submit call's error (e.g. RATE_LIMITED), or the wait call's if the stream broke and waiting failed too
 */
export async function submitAndFollow(
  client: Client,
  input: SubmitInput,
  signal: AbortSignal,
  onProgress: (p: SubmissionProgress) => void,
  /** Makes the submission another way (a contest's `contests.submit`); default `submissions.create`. */
  create: () => Promise<{ id: string }> = () => client.submissions.create.mutate(input),
): Promise<Submission> {
  const { id } = await create();
  onProgress({ status: "queued", testsDone: 0, testsTotal: 0, tests: [], verdict: null, compileOutput: null });

  const streamed = await new Promise<Submission | null>((resolve) => {
    let settled = false;
    const finish = (value: Submission | null) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      sub.unsubscribe();
      resolve(value);
    };
    const onAbort = () => finish(null);
    const sub = client.submissions.progress.subscribe(
      { id },
      {
        onData(event) {
          switch (event.status) {
            case "queued":
              onProgress({ status: "queued", testsDone: 0, testsTotal: 0, tests: [], verdict: null, compileOutput: null, ahead: event.ahead });
              break;
            case "compiling":
              onProgress({ status: "compiling", testsDone: 0, testsTotal: 0, tests: [], verdict: null, compileOutput: null });
              break;
            case "running":
              onProgress({ status: "running", testsDone: event.tests.length, testsTotal: event.of ?? 0, tests: testRows(event.tests), verdict: null, compileOutput: null });
              break;
            case "done":
              onProgress(progressOfSubmission(event.submission));
              finish(event.submission);
              break;
          }
        },
        onError(err) {
          console.warn("Judging progress stream failed; waiting for the verdict instead:", err);
          finish(null);
        },
        // A stream that cannot be opened or breaks (network, a proxy that refuses SSE, a 5xx) would
        // otherwise be reopened forever by EventSource: wait for the verdict over a plain call instead.
        onConnectionStateChange(state) {
          if (state.state !== "connecting" || !state.error) return;
          console.warn("Judging progress stream broke; waiting for the verdict instead:", state.error);
          finish(null);
        },
        onComplete() {
          finish(null);
        },
      },
    );
    signal.addEventListener("abort", onAbort);
  });
  if (streamed) return streamed;
  if (signal.aborted) throw new DOMException("Aborted", "AbortError"); // i18n-ignore: an error for code, never shown

  // The stream ended without a verdict: ask the server to answer once judged.
  for (;;) {
    const s = await client.submissions.wait.query({ id }, { signal });
    onProgress(progressOfSubmission(s));
    if (s.status === "done") return s;
  }
}

export interface ReviewSource {
  provider: string;
  model: string;
  cached: boolean;
}

/**
 * Asks for an AI review over the ai.stream subscription (SSE): `start`, then
 * `delta` chunks that concatenate to the review, then `done`. When the stream
 * is refused for want of a cookie (401) or cannot be opened at all, the
 * whole text is asked for once with `ai.review` instead; any other error
 * (the server's answer) is thrown as it is.
 * @param input     `force` skips the server's review cache (Re-analyze)
 * @param onText    called with the review so far while it streams in
 * @param onSource  called once the server says which reviewer answers
 * @returns the whole review (markdown)
 * @throws the server's error (AI_EMPTY_CODE, RATE_LIMITED, AI_PROVIDER_FAILED, ...)
 */
export async function requestReview(
  client: Client,
  input: RouterInputs["ai"]["stream"],
  signal: AbortSignal,
  onText: (soFar: string) => void,
  onSource?: (source: ReviewSource) => void,
): Promise<string> {
  try {
    return await streamReview(client, input, signal, onText, onSource);
  } catch (err) {
    if (signal.aborted) throw err;
    // The server's answer (the reviewer failed, rate limit, ...) stands, except a
    // 401: EventSource cannot send the bearer token, so without the session
    // cookie the stream is refused. That, or a stream that could not be opened
    // at all (no status), is retried once as the whole-text call, which
    // carries the token.
    const status = httpStatusOf(err);
    if (status !== null && status !== 401) throw err;
    const result = await client.ai.review.mutate(input, { signal });
    onSource?.({ provider: result.provider, model: result.model, cached: result.cached });
    onText(result.review);
    return result.review;
  }
}

function streamReview(
  client: Client,
  input: RouterInputs["ai"]["stream"],
  signal: AbortSignal,
  onText: (soFar: string) => void,
  onSource?: (source: ReviewSource) => void,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = "";
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      sub.unsubscribe();
      fn();
    };
    const onAbort = () => settle(() => reject(new DOMException("Aborted", "AbortError"))); // i18n-ignore: an error for code, never shown
    const sub = client.ai.stream.subscribe(input, {
      onData(event) {
        if (event.type === "start") {
          text = "";
          onSource?.({ provider: event.provider, model: event.model, cached: event.cached });
        } else if (event.type === "delta") {
          text += event.text;
          onText(text);
        } else if (event.type === "done") {
          settle(() => resolve(text));
        }
      },
      onError(err) {
        settle(() => reject(err));
      },
      // tRPC reopens a broken stream, and treats a 5xx answer (a failed
      // reviewer is a 502) as a broken stream; reopening would ask the
      // reviewer again and again. Stop at the first break instead.
      onConnectionStateChange(state) {
        if (state.state === "connecting" && state.error) {
          const error = state.error;
          settle(() => reject(error));
        }
      },
      onComplete() {
        settle(() => (text ? resolve(text) : reject(new Error("The review ended without any text"))));
      },
    });
    signal.addEventListener("abort", onAbort);
  });
}
