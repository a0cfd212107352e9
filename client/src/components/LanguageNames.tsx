/**
 * The names of the languages this server offers, as a sentence's list ("C, C++, Java and
 * Python"), read from the server's own list (tRPC `judge.languages`, what is configured and
 * installed there), so the landing page, the footer and About never name a language the
 * judge refuses or leave out one it takes. Until the server answers (or if it cannot), the
 * list reads "the languages this server offers".
 */
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";

/** `["C", "C++", "Java"]` → "C, C++ and Java" (`or`: "C, C++ or Java"). */
export function joinNames(names: readonly string[], conjunction: "and" | "or" = "and"): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} ${conjunction} ${names[names.length - 1]}`;
}

/** The offered languages' short names ("C++"), in display order; null until the server answers. */
export function useOfferedLanguageNames(): string[] | null {
  const trpc = useTRPC();
  const offered = useQuery({ ...trpc.judge.languages.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  return offered.data ? offered.data.languages.map((l) => l.name) : null;
}

/** The offered languages as inline text ("C, C++, Java and Python"). */
export function LanguageNames({ conjunction = "and" }: { conjunction?: "and" | "or" }) {
  const names = useOfferedLanguageNames();
  return <span data-testid="language-names">{names && names.length > 0 ? joinNames(names, conjunction) : "the languages this server offers"}</span>;
}
