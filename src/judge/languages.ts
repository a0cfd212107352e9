/**
 * The languages this server offers: what LANGUAGES names (every registered
 * language when unset), less those whose compiler or runtime is missing here
 * when this process judges (a judge-host-only server offers what it names:
 * the hosts claim only what they have). Read once at start; Run and Submit
 * refuse anything else with LANGUAGE_UNAVAILABLE, and the language selector
 * shows only these (GET /api/languages, `judge.languages`).
 */
import { LANGUAGE_IDS, LANGUAGES, type LanguageId } from "../../isolate/languages/index.ts";
import { missingTools } from "../../isolate/languages/host.ts";
import type { Config } from "../config.ts";
import type { PythonImplementation } from "../problems/limits.ts";
import { AppError } from "../errors.ts";

export interface OfferedLanguages {
  /** Offered ids, in the registry's display order. */
  ids: readonly LanguageId[];
  /** Named (or registered) but not offered, and why: for the start log and doctor. */
  left: readonly { id: LanguageId; why: string }[];
}

/**
 * @param exists how a tool's path is checked (tests pass their own).
 * @example offeredLanguages({ LANGUAGES: "cpp,py", JUDGE_IN_PROCESS: true }).ids // ["cpp", "py"] where g++ and python3 are installed
 */
export function offeredLanguages(config: Pick<Config, "LANGUAGES" | "JUDGE_IN_PROCESS">, exists?: (path: string) => boolean): OfferedLanguages {
  const named = config.LANGUAGES === undefined ? null : new Set(config.LANGUAGES.split(",").map((s) => s.trim()));
  const ids: LanguageId[] = [];
  const left: { id: LanguageId; why: string }[] = [];
  const missing = new Map(missingTools(exists).map((m) => [m.id, m.missing]));
  for (const id of LANGUAGE_IDS) {
    if (named && !named.has(id)) continue;
    const gone = config.JUDGE_IN_PROCESS ? (missing.get(id) ?? []) : [];
    if (gone.length) left.push({ id, why: `${gone.join(", ")} missing (${LANGUAGES[id].requires.filter((t) => gone.includes(t.path)).map((t) => `apt install ${t.debianPackage}`).join(", ")})` });
    else ids.push(id);
  }
  return { ids, left };
}

/** @throws AppError LANGUAGE_UNAVAILABLE (400, field `language`) when `id` is not offered, naming those that are. */
export function requireOffered(offered: readonly LanguageId[], id: LanguageId): void {
  if (offered.includes(id)) return;
  throw new AppError("LANGUAGE_UNAVAILABLE", {
    field: "language",
    message: `${LANGUAGES[id].name} is not offered on this server; offered: ${offered.map((l) => LANGUAGES[l].name).join(", ") || "none"}`,
  });
}

/**
 * The language that judges a submission on a problem: Python 3 runs on PyPy
 * where the problem says so (`pythonImplementation`, from a package's
 * `languages` or the import; DOMjudge runs Python 3 on PyPy by default). The
 * submission keeps the language its author chose.
 */
export function judgingLanguage(language: LanguageId, problem: { pythonImplementation: PythonImplementation }): LanguageId {
  return language === "py" && problem.pythonImplementation === "pypy" ? "pypy" : language;
}

/**
 * `requireOffered` for what actually judges `language` on `problem`.
 * @throws AppError LANGUAGE_UNAVAILABLE (400, field `language`): Python 3 on a PyPy problem where PyPy is not offered.
 */
export function requireJudgeable(offered: readonly LanguageId[], language: LanguageId, problem: { pythonImplementation: PythonImplementation }): void {
  const judging = judgingLanguage(language, problem);
  if (judging === language || offered.includes(judging)) return;
  throw new AppError("LANGUAGE_UNAVAILABLE", {
    field: "language",
    message: `this problem runs ${LANGUAGES[language].name} on ${LANGUAGES[judging].name}, which is not offered on this server (apt install ${LANGUAGES[judging].requires.map((t) => t.debianPackage).join(" ")})`,
  });
}

/** One offered language as GET /api/languages shows it. */
export interface LanguageView {
  id: LanguageId;
  /** "C++" */
  name: string;
  /** "C++17 (GCC)" */
  displayName: string;
  /** Times the problem's time limit for problems scaled by language (docs/decisions/011). */
  timeMultiplier: number;
  /** Monaco's and Prism's mode, e.g. "python". */
  editorMode: string;
}

/** The offered languages as the API answers them: `{ languages: LanguageView[] }`, in display order. */
export function languagesView(ids: readonly LanguageId[]): { languages: LanguageView[] } {
  return {
    languages: ids.map((id) => {
      const l = LANGUAGES[id];
      return { id, name: l.name, displayName: l.displayName, timeMultiplier: l.timeMultiplier, editorMode: l.editorMode };
    }),
  };
}
