/**
 * The names of the languages this server offers, as a sentence's list ("C, C++, Java and
 * Python"), read from the server's own list (tRPC `judge.languages`, what is configured and
 * installed there), so the landing page, the footer and About never name a language the
 * judge refuses or leave out one it takes. Until the server answers (or if it cannot), the
 * list reads "the languages this server offers". The list is joined in the interface's
 * language (Intl.ListFormat: "C, C++ und Java", "C、C++、Java"), re-rendered on a switch.
 */
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";
import { activeLocale } from "../i18n/locale.ts";
import { PSEUDO_LOCALE, SOURCE_LOCALE } from "../../../src/i18n/locales.ts";
import { accentForPseudo } from "../i18n/namespace.ts";

/** A list's parts in the active interface language: the names (`element`) and the words and commas between them (`literal`). */
function listParts(names: readonly string[], conjunction: "and" | "or"): { type: "element" | "literal"; value: string }[] {
  const tag = activeLocale();
  // English as British English writes it (no serial comma: "C, C++ and Java"); the pseudo-locale accents its "and".
  const locale = tag === SOURCE_LOCALE || tag === PSEUDO_LOCALE ? "en-GB" : tag;
  const parts = new Intl.ListFormat(locale, { style: "long", type: conjunction === "and" ? "conjunction" : "disjunction" }).formatToParts(names);
  return tag === PSEUDO_LOCALE ? parts.map((p) => (p.type === "literal" ? { ...p, value: accentForPseudo(p.value) } : p)) : parts;
}

/** `["C", "C++", "Java"]` → "C, C++ and Java" (`or`: "C, C++ or Java"), in the active interface language ("C, C++ und Java", "C、C++、Java"). */
export function joinNames(names: readonly string[], conjunction: "and" | "or" = "and"): string {
  if (names.length <= 1) return names[0] ?? "";
  return listParts(names, conjunction)
    .map((p) => p.value)
    .join("");
}

/** The offered languages' short names ("C++"), in display order; null until the server answers. */
export function useOfferedLanguageNames(): string[] | null {
  const trpc = useTRPC();
  const offered = useQuery({ ...trpc.judge.languages.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  return offered.data ? offered.data.languages.map((l) => l.name) : null;
}

/** The offered languages as inline text ("C, C++, Java and Python"); each name isolated (`bdi`), so "C++" reads as it is in a right-to-left sentence. */
export function LanguageNames({ conjunction = "and" }: { conjunction?: "and" | "or" }) {
  const t = useT(common);
  const names = useOfferedLanguageNames();
  if (!names || names.length === 0) return <span data-testid="language-names">{t("languages.offered")}</span>;
  return (
    <span data-testid="language-names">
      {listParts(names, conjunction).map((p, i) =>
        p.type === "element" ? (
          <bdi key={i} dir="ltr" translate="no">
            {p.value}
          </bdi>
        ) : (
          p.value
        ),
      )}
    </span>
  );
}
