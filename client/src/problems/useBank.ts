/**
 * The problem bank's data: one page at a time of `problems.bank` (cursor
 * pagination, 50 a page) for the filters in the address, the tag list for the
 * tag filter (`problems.tags`), and the spoiler-free switch
 * (`problems.setHideTags`, kept on the account). A missing token or a 401
 * while loading signs the user out and goes to `/`.
 */
import { useEffect } from "react";
import { useLocation } from "wouter";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BankPage, BankProblem } from "../../../src/problems/bank/shape.ts";
import { useAuth, useSessionExpiry } from "../lib/auth.tsx";
import { getToken } from "../lib/storage.ts";
import { useTRPC } from "../lib/trpc.ts";
import { DIFFICULTIES, type Difficulty } from "../lib/types.ts";
import { bankInput, type BankFilters } from "./bank-filters.ts";

const NO_COUNTS = Object.fromEntries(DIFFICULTIES.map((d) => [d, 0])) as Record<Difficulty, number>;

export function useBank(filters: BankFilters) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { expire } = useAuth();
  const [, navigate] = useLocation();
  const onUnauthorized = useSessionExpiry();

  const query = useInfiniteQuery({
    ...trpc.problems.bank.infiniteQueryOptions(bankInput(filters), { getNextPageParam: (page: BankPage) => page.nextCursor ?? undefined }),
    // While a new search loads, the last answer stays on screen (no flash of "Loading").
    placeholderData: keepPreviousData,
  });
  const tags = useQuery(trpc.problems.tags.queryOptions());
  const hideTags = useMutation(
    trpc.problems.setHideTags.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.problems.bank.pathKey() }),
    }),
  );

  useEffect(() => {
    if (query.isError && onUnauthorized(query.error, "/", { replace: true })) return;
    if (!getToken()) {
      expire();
      navigate("/", { replace: true });
    }
  }, [query.isError, query.error, onUnauthorized, expire, navigate]);

  const pages = query.data?.pages ?? [];
  const first: BankPage | undefined = pages[0];
  const problems: BankProblem[] = pages.flatMap((p) => p.problems);
  return {
    query,
    problems,
    total: first?.total ?? 0,
    counts: first?.difficultyCounts ?? NO_COUNTS,
    // While the switch's change is saved, it shows the new value (the control stays enabled and focused).
    hideTags: hideTags.isPending && hideTags.variables ? hideTags.variables.hide : (first?.hideTags ?? false),
    tags: tags.data ?? [],
    setHideTags: (hide: boolean) => hideTags.mutate({ hide }),
    /** The key every bank page shares (to refresh after an edit, a delete or an import). */
    listKey: trpc.problems.bank.pathKey(),
  };
}
