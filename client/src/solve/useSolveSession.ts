/**
 * The solving session of one problem: the language and code (kept per problem
 * and language in localStorage), the custom input, and the three actions that
 * talk to the server (Run, Submit with live progress, AI review) with their
 * busy flags, output and review panel state. Streams end when the page goes.
 */
import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { AiPanelState } from "../components/AiReviewPanel.tsx";
import type { OutputState } from "../components/OutputPanel.tsx";
import { isEmptyCodeError, requestReview, runOnce, runFailureState, submitAndFollow, type ReviewSource } from "../lib/judging.ts";
import { DEFAULT_LANGUAGE, isLanguageId, languageOf, type LanguageId } from "../lib/languages.ts";
import { getSavedCode, saveCode } from "../lib/storage.ts";
import { httpStatusOf, serverMessageOf, useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { solve } from "../i18n/catalog/solve/index.ts";

function initialCode(problemId: string, language: LanguageId): string {
  return getSavedCode(problemId, language) ?? languageOf(language).boilerplate;
}

/** The sample of the problem being solved (Run checks it), when loaded. */
interface SampleOf {
  sampleInput: string;
  sampleOutput: string;
  /** Run plays the sample through the problem's validator (interactive or multi-pass). */
  interactive: boolean;
  validationPasses: number;
}

/** @param contestId opened from a contest: Submit goes into it (contests.submit). */
export function useSolveSession(problemId: string, problem: SampleOf | undefined, assignmentId: string | undefined, contestId?: string, takePastes?: () => { atMs: number; chars: number }[]) {
  const t = useT(solve);
  const emptyCodeMessage = t("ai.emptyCode");
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [language, setLanguage] = useState<LanguageId>(DEFAULT_LANGUAGE);
  const [code, setCode] = useState(() => initialCode(problemId, DEFAULT_LANGUAGE));
  const [customInput, setCustomInput] = useState("");
  const [running, setRunning] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const [output, setOutput] = useState<OutputState>({ kind: "empty" });
  const [aiOpen, setAiOpen] = useState(false);
  const [ai, setAi] = useState<AiPanelState>({ loading: false, review: "", message: null });
  const busy = running || submitting || reviewing;

  // Subscriptions and streams end when the page goes away.
  const abort = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    return () => controller.abort();
  }, []);

  function changeCode(next: string) {
    setCode(next);
    saveCode(problemId, language, next);
  }

  function changeLanguage(next: string) {
    if (!isLanguageId(next)) return;
    setLanguage(next);
    const saved = getSavedCode(problemId, next);
    if (saved !== null && saved.trim() !== "") {
      setCode(saved);
      return;
    }
    // The code as last set, not as last rendered: an edit just made (the editor's onChange) may not have
    // re-rendered this handler yet when the language changes.
    setCode((current) => {
      if (current.trim() !== "") return current;
      saveCode(problemId, next, languageOf(next).boilerplate);
      return languageOf(next).boilerplate;
    });
  }

  /** The server does not offer the current language: open `next` with its saved code or its boilerplate. */
  function fallBackTo(next: LanguageId) {
    setLanguage(next);
    const saved = getSavedCode(problemId, next);
    setCode(saved !== null && saved.trim() !== "" ? saved : languageOf(next).boilerplate);
  }

  function resetToBoilerplate() {
    changeCode(languageOf(language).boilerplate);
  }

  async function run() {
    if (busy || !problem) return;
    setRunning(true);
    setOutput({ kind: "pending", phase: "compiling" });
    try {
      const state: Extract<OutputState, { kind: "run" }> = { kind: "run", notes: [] };
      if (problem.interactive || problem.validationPasses > 1) {
        // The server plays the sample through the problem's validator; there is no custom input to run.
        const r = await runOnce(client, { problemId, language, code, input: "" });
        state.sample = { ...r, expected: problem.sampleOutput, correct: r.correct ?? false, interaction: problem.interactive };
        if (customInput.trim() !== "") state.notes.push("customInputUnused");
        setOutput(state);
        return;
      }
      if (customInput.trim() !== "") {
        state.custom = await runOnce(client, { problemId, language, code, input: customInput });
      }
      if (problem.sampleInput && problem.sampleOutput) {
        const r = await runOnce(client, { problemId, language, code, input: problem.sampleInput, expectedOutput: problem.sampleOutput });
        state.sample = { ...r, expected: problem.sampleOutput, correct: r.correct ?? false };
      }
      if (!state.custom && !state.sample) state.notes.push("nothingToRun");
      setOutput(state);
    } catch (err) {
      setOutput(runFailureState(err));
    } finally {
      setRunning(false);
    }
  }

  async function submit() {
    if (busy || !problem) return;
    setSubmitting(true);
    setOutput({ kind: "pending", phase: "submitting" });
    try {
      const intoContest = contestId ? () => client.contests.submit.mutate({ id: contestId, problemId, language, code }) : undefined;
      await submitAndFollow(
        client,
        { problemId, language, code, ...(assignmentId ? { assignmentId } : {}), ...(takePastes ? { pastes: takePastes() } : {}) },
        abort.current.signal,
        (progress) => setOutput({ kind: "submission", progress, saved: false }),
        intoContest,
      );
      setOutput((prev) => (prev.kind === "submission" ? { ...prev, saved: true } : prev));
      void queryClient.invalidateQueries({ queryKey: trpc.submissions.list.queryKey({ problemId }) });
    } catch (err) {
      if (!abort.current.signal.aborted) setOutput(runFailureState(err));
    } finally {
      setSubmitting(false);
    }
  }

  async function review(force = false) {
    if (busy) return;
    setAiOpen(true);
    if (code.trim() === "") {
      setAi({ loading: false, review: "", message: emptyCodeMessage });
      return;
    }
    setReviewing(true);
    setAi({ loading: true, review: "", message: null });
    try {
      let source: ReviewSource | undefined;
      const text = await requestReview(
        client,
        { code, language, problemId, force, ...(assignmentId ? { assignmentId } : {}) },
        abort.current.signal,
        (soFar) => setAi({ loading: true, review: soFar, message: null, source }),
        (s) => {
          source = s;
        },
      );
      setAi({ loading: false, review: text, message: null, source });
    } catch (err) {
      if (abort.current.signal.aborted) return;
      console.warn("AI review failed:", err);
      // A course policy refusal (AI off for this assignment) says so; any other failure keeps the product's text.
      const refusal = httpStatusOf(err) === 403 ? serverMessageOf(err) : null;
      setAi({ loading: false, review: "", message: isEmptyCodeError(err) ? emptyCodeMessage : (refusal ?? t("ai.failed")) });
    } finally {
      setReviewing(false);
    }
  }


  return {
    language,
    code,
    customInput,
    setCustomInput,
    running,
    submitting,
    reviewing,
    busy,
    output,
    aiOpen,
    setAiOpen,
    ai,
    changeCode,
    changeLanguage,
    fallBackTo,
    resetToBoilerplate,
    run,
    submit,
    review,
  };
}
