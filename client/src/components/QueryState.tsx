/**
 * The three states every data screen has before it shows its data: loading
 * (a spinner with the screen's text), error (a red banner) and empty (the
 * screen's own empty state). Renders `children(data)` once data is there.
 * A refusal is not an error banner: a 403 shows "Not allowed" and a 404
 * "Page not found" (ErrorState), never the screen's staff UI.
 *
 * @example
 * <QueryState query={listQuery} loading="Loading problems..." error="Failed to fetch problems"
 *   isEmpty={(list) => list.length === 0} empty={<EmptyState />}>
 *   {(list) => <ProblemGrid problems={list} />}
 * </QueryState>
 */
import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { Spinner } from "./Loading.tsx";
import { ErrorState } from "./shell/ErrorPage.tsx";
import { appDetailsOf, httpStatusOf, serverMessageOf } from "../lib/trpc.ts";

interface Props<T> {
  query: Pick<UseQueryResult<T>, "isPending" | "isError" | "data"> & { error?: unknown };
  /** Text beside the spinner, e.g. "Loading problems...". */
  loading: ReactNode;
  /** The banner's text when the query failed. */
  error: ReactNode;
  /** Whether the data counts as empty (default: never). */
  isEmpty?: (data: T) => boolean;
  /** Shown instead of `children` when `isEmpty(data)`. */
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

export function QueryState<T>({ query, loading, error, isEmpty, empty, children }: Props<T>) {
  if (query.isPending) {
    return (
      <div className="center-state" role="status">
        <Spinner /> {loading}
      </div>
    );
  }
  if (query.isError || query.data === undefined) {
    const status = query.isError ? httpStatusOf(query.error) : null;
    // An exam access rule's refusal says which rule (src/courses/exam: `details.rule`).
    if (status === 403) return <ErrorState kind="forbidden" detail={appDetailsOf(query.error)?.rule ? (serverMessageOf(query.error) ?? undefined) : undefined} />;
    if (status === 404) return <ErrorState kind="notFound" />;
    return (
      <p className="alert alert-error" role="alert">
        {error}
      </p>
    );
  }
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
