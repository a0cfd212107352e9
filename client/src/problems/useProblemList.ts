/**
 * The problem list's data: the query, the counts per difficulty, the problems
 * of the selected tab, and the rule that a missing token or a 401 while
 * loading signs the user out and goes to `/`.
 */
import { useEffect } from "react";
import { useLocation } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { useAuth, useSessionExpiry } from "../lib/auth.tsx";
import { userIdFromToken } from "../lib/jwt.ts";
import { getToken } from "../lib/storage.ts";
import { useTRPC } from "../lib/trpc.ts";
import { DIFFICULTIES, type Difficulty, type Problem } from "../lib/types.ts";

export function useProblemList(tab: Difficulty) {
  const trpc = useTRPC();
  const { expire } = useAuth();
  const [, navigate] = useLocation();
  const onUnauthorized = useSessionExpiry();
  const query = useQuery(trpc.problems.list.queryOptions());

  useEffect(() => {
    if (query.isError && onUnauthorized(query.error, "/", { replace: true })) return;
    if (!getToken()) {
      expire();
      navigate("/", { replace: true });
    }
  }, [query.isError, query.error, onUnauthorized, expire, navigate]);

  const problems: Problem[] = query.data ?? [];
  const counts = Object.fromEntries(DIFFICULTIES.map((d) => [d, problems.filter((p) => p.difficulty === d).length])) as Record<Difficulty, number>;
  return {
    query,
    counts,
    shown: problems.filter((p) => p.difficulty === tab),
    /** The signed-in user's id, read from the token: ownership decides Edit and Delete. */
    myId: userIdFromToken(getToken()),
    queryKey: trpc.problems.list.queryKey(),
  };
}
