/**
 * One notice runner for every page: `useNotice()` keeps a form's outcome line
 * (shown by <FormMessage notice={...} />) and runs an action under it —
 * clearing the last notice, showing the success text when the action
 * resolves, and the server's message (or a fallback) when it rejects.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { FormNotice } from "../components/FormMessage.tsx";
import { serverMessageOf } from "./trpc.ts";

export interface NoticeRunOptions<T> {
  /** Shown when the action resolves (a function of its result, or nothing). */
  success?: string | ((result: T) => string);
  /** Shown when it rejects and the server sent no message. */
  error: string;
  /** Called first on a rejection; returning true means handled (e.g. the session expired and the page moved on). */
  handled?: (err: unknown) => boolean;
  /** Clears a success notice after this many ms. */
  successMs?: number;
}

export interface Notice {
  notice: FormNotice | null;
  /** Shows a notice now; `ms` clears it after that many milliseconds. */
  show(kind: FormNotice["kind"], text: string, ms?: number): void;
  clear(): void;
  /** Runs `action` under the notice; resolves to its result, or undefined when it failed (the error is shown). */
  run<T>(action: () => Promise<T>, options: NoticeRunOptions<T>): Promise<T | undefined>;
}

export function useNotice(): Notice {
  const [notice, setNotice] = useState<FormNotice | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback((kind: FormNotice["kind"], text: string, ms?: number) => {
    clearTimeout(timer.current);
    setNotice({ kind, text });
    if (ms) timer.current = setTimeout(() => setNotice(null), ms);
  }, []);
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setNotice(null);
  }, []);
  const run = useCallback(
    async <T>(action: () => Promise<T>, options: NoticeRunOptions<T>): Promise<T | undefined> => {
      clear();
      try {
        const result = await action();
        const { success } = options;
        if (success !== undefined) show("success", typeof success === "string" ? success : success(result), options.successMs);
        return result;
      } catch (err) {
        if (!options.handled?.(err)) show("error", serverMessageOf(err) ?? options.error);
        return undefined;
      }
    },
    [clear, show],
  );
  return { notice, show, clear, run };
}
