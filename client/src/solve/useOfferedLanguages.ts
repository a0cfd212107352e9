/**
 * The languages this server offers (tRPC `judge.languages`, what LANGUAGES
 * names and is installed there), as registry records in display order. Until
 * the server answers, or if it cannot, every registered language (the server
 * still refuses one it does not offer, naming the others).
 */
import { useQuery } from "@tanstack/react-query";
import { LANGUAGE_LIST } from "../lib/languages.ts";
import { useTRPC } from "../lib/trpc.ts";

export function useOfferedLanguages(): typeof LANGUAGE_LIST {
  const trpc = useTRPC();
  const offered = useQuery({ ...trpc.judge.languages.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  const ids = offered.data?.languages.map((l) => l.id);
  return ids ? LANGUAGE_LIST.filter((l) => ids.includes(l.id)) : LANGUAGE_LIST;
}
