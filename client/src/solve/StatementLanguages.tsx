/**
 * A problem's statement in the languages it has (issue 34 §8): when its
 * package brought other languages (`problem.<lang>.md` / `.tex`, read from
 * problems.statements), a select offers each by its name in the interface's
 * language ("Swedish", "schwedisch"), the one matching the viewer's language
 * first chosen when present; another language's statement replaces the main
 * one's sections (it is the whole statement). Without other languages the
 * main statement shows alone, as before.
 */
import { lazy, Suspense, useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";
import { Select } from "../kit/index.ts";
import { useT } from "../i18n/index.tsx";
import { solve } from "../i18n/catalog/solve/index.ts";
import { activeLocale } from "../i18n/locale.ts";

const StatementMarkdown = lazy(() => import("../components/StatementMarkdown.tsx"));

/** The language code a statement file uses for the interface's locale ("pt-BR" → "pt", "zh-CN" → "zh"). */
export function statementCodeOf(locale: string): string {
  return locale.split("-")[0]!.toLowerCase();
}

/** A language code's name in the interface's language ("sv" → "Swedish"), the code itself when the browser has no name for it. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([activeLocale()], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Statement text rendered as Markdown with math (plain text until the renderer has loaded); images named relatively come from the problem. */
export function StatementText({ text, problemId }: { text: string; problemId: string }) {
  return (
    // The author's words, in the author's language: their own direction (dir="auto"), and user content to the pseudo-locale check (.statement).
    <Suspense fallback={<p className="statement statement-text" dir="auto">{text}</p>}>
      <div className="statement statement-md" dir="auto">
        <StatementMarkdown text={text} assetBase={`/api/problems/${encodeURIComponent(problemId)}/assets`} />
      </div>
    </Suspense>
  );
}

export function StatementLanguages({ problemId, children }: { problemId: string; children: ReactNode }) {
  const t = useT(solve);
  const trpc = useTRPC();
  const statements = useQuery(trpc.problems.statements.queryOptions({ id: problemId }));
  const [chosen, setChosen] = useState<string | null>(null);
  const data = statements.data;
  const others = data ? Object.keys(data.translations).sort() : [];
  if (!data || others.length === 0) return <>{children}</>;
  const mine = statementCodeOf(activeLocale());
  const shown = chosen ?? (mine in data.translations ? mine : data.language);
  const text = shown === data.language ? null : data.translations[shown];
  return (
    <>
      <Select label={t("statementLanguage.label")} value={shown} onChange={(e) => setChosen(e.target.value)} className="statement-language">
        {[data.language, ...others].map((code) => (
          <option key={code} value={code} lang={code}>
            {code === data.language ? t("statementLanguage.original", { language: languageName(code) }) : languageName(code)}
          </option>
        ))}
      </Select>
      {text === null || text === undefined ? (
        children
      ) : (
        <section lang={shown} data-testid="statement-translation">
          <StatementText text={text} problemId={problemId} />
        </section>
      )}
    </>
  );
}
