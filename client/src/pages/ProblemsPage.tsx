/**
 * The problem bank (issue 35): search, filters (difficulty tabs, tag, status,
 * source), a sort, and one page of 50 problems at a time ("Show more" adds the
 * next and moves the keyboard focus to its first problem). Every filter lives
 * in the address (/problems?q=…&tag=…), so a search can be shared and Back
 * undoes it. Authors' actions (Create Problem, Import package) sit beside the
 * heading as secondary buttons. Data and actions live in src/problems' hooks
 * (useBank, useProblemEditor); this page lays them out.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "wouter";
import { useQueryClient } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { ProblemFormModal } from "../components/ProblemFormModal.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { useTRPC } from "../lib/trpc.ts";
import type { Difficulty } from "../lib/types.ts";
import { activeLocale, intlLocales } from "../i18n/locale.ts";
import { BankFilters, SEARCH_INPUT_ID } from "../problems/BankFilters.tsx";
import { filtersFromParams, isFiltered, paramsWithFilters, type BankFilters as Filters } from "../problems/bank-filters.ts";
import { formatCount } from "../problems/bank-format.ts";
import { DifficultyTabs, type DifficultyTab } from "../problems/DifficultyTabs.tsx";
import { ImportOutcomeMessage, ImportPackageButton, type ImportOutcome } from "../problems/ImportPackage.tsx";
import { ProblemCard } from "../problems/ProblemCard.tsx";
import { useBank } from "../problems/useBank.ts";
import { useProblemEditor } from "../problems/useProblemEditor.ts";
import { T, useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";
import "../problems/bank.css";

/** The empty state's heading and text per tab, for a bank with no problems at all (whole sentences, one message each). */
const EMPTY = {
  all: { title: "empty.all.title", body: "empty.all.body" },
  easy: { title: "empty.easy.title", body: "empty.easy.body" },
  medium: { title: "empty.medium.title", body: "empty.medium.body" },
  hard: { title: "empty.hard.title", body: "empty.hard.body" },
} as const satisfies Record<DifficultyTab, { title: string; body: string }>;

export function ProblemsPage() {
  const t = useT(problems);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = filtersFromParams(searchParams);
  // Each change is a history entry (Back undoes it); the address keeps its other parameters (?lang=).
  const setFilters = (next: Filters) => setSearchParams((current) => paramsWithFilters(current, next));
  const tab: DifficultyTab = filters.difficulty ?? "all";
  const setTab = (d: DifficultyTab) => setFilters({ ...filters, difficulty: d === "all" ? null : d });
  // A saved or imported problem of another level than the tab shown: show its level, so it does not seem to vanish.
  const showLevel = (d: Difficulty) => {
    if (filters.difficulty && filters.difficulty !== d) setTab(d);
  };

  const bank = useBank(filters);
  const [imported, setImported] = useState<ImportOutcome | null>(null);
  const editor = useProblemEditor(bank.listKey, showLevel);
  const locales = intlLocales(activeLocale());

  // "Show more": the first problem of the new page takes the focus once it is there.
  const focusAt = useRef<number | null>(null);
  const newFirst = useRef<HTMLHeadingElement | null>(null);
  useEffect(() => {
    if (focusAt.current !== null && bank.problems.length > focusAt.current) {
      newFirst.current?.focus();
      focusAt.current = null;
    }
  }, [bank.problems.length]);

  /** Edit needs the whole problem (hidden tests, validator): asked for this one problem, never the whole list. */
  function edit(id: string) {
    void editor.openEditFrom(() => queryClient.fetchQuery({ ...trpc.problems.forEdit.queryOptions({ id }), staleTime: 0 }));
  }

  // The button goes away with the filters: the focus goes on to the search box, not back to the page's start.
  const clearFilters = () => {
    setFilters({ q: "", tag: null, difficulty: null, status: null, source: null, sort: filters.sort });
    document.getElementById(SEARCH_INPUT_ID)?.focus();
  };
  const shown = bank.problems.length;

  return (
    <Page title={t("page.title")}>
      <div className="page-heading bank-heading">
        <div>
          <h1 className="page-title">{t("page.heading")}</h1>
          <p className="muted">{t("page.intro")}</p>
        </div>
        {/* For authors: reachable, but not what the page is about. */}
        <p className="page-actions bank-author-actions">
          <span className="muted bank-author-label">{t("page.authors")}</span>{" "}
          <button type="button" className="btn btn-ghost btn-sm" onClick={editor.openCreate}>
            <span aria-hidden="true">+</span> {t("page.create")}
          </button>{" "}
          <ImportPackageButton difficulty={filters.difficulty ?? "easy"} listKey={bank.listKey} onImported={showLevel} onOutcome={setImported} />
          <span className="muted bank-author-hint"> {t("page.importHint")}</span>
        </p>
      </div>

      <FormMessage notice={editor.notice} />
      <ImportOutcomeMessage outcome={imported} onDismiss={() => setImported(null)} />

      <BankFilters filters={filters} onChange={setFilters} tags={bank.tags} hideTags={bank.hideTags} onHideTags={bank.setHideTags} />

      <DifficultyTabs tab={tab} counts={bank.counts} onSelect={setTab} panelId="problems-panel" />

      <section id="problems-panel" role="tabpanel" aria-labelledby={`tab-${tab}`} aria-busy={bank.query.isFetching}>
        <QueryState
          query={bank.query}
          loading={t("page.loading")}
          error={t("page.loadFailed")}
          isEmpty={() => shown === 0}
          empty={
            isFiltered({ ...filters, difficulty: null }) ? (
              <div className="empty-state" role="status">
                <h2>{t("empty.noMatch.title")}</h2>
                <p className="muted">{t("empty.noMatch.body")}</p>
                <button type="button" className="btn btn-primary btn-sm" onClick={clearFilters}>
                  {t("bank.clearFilters")}
                </button>
              </div>
            ) : (
              <div className="empty-state">
                <h2>{t(EMPTY[tab].title)}</h2>
                <p className="muted">{t(EMPTY[tab].body)}</p>
              </div>
            )
          }
        >
          {() => (
            <>
              <div className="bank-summary">
                <p role="status" className="bank-total">
                  {t("bank.total", { count: bank.total, n: formatCount(bank.total, locales) })}
                </p>
                {isFiltered(filters) && (
                  <button type="button" className="btn btn-ghost btn-sm" onClick={clearFilters}>
                    {t("bank.clearFilters")}
                  </button>
                )}
              </div>
              <ul className="problem-grid">
                {bank.problems.map((p, i) => (
                  <ProblemCard
                    key={p.id}
                    problem={p}
                    activeTag={filters.tag}
                    onTag={(tag) => setFilters({ ...filters, tag: tag.slug })}
                    headingRef={i === focusAt.current ? newFirst : undefined}
                    owner={{
                      confirmingDelete: editor.confirmingDelete === p.id,
                      deleting: editor.deleting,
                      onEdit: () => edit(p.id),
                      onAskDelete: () => editor.setConfirmingDelete(p.id),
                      onConfirmDelete: () => editor.del(p.id),
                      onKeep: () => editor.setConfirmingDelete(null),
                      onRejudge: () => void editor.rejudge({ _id: p.id, title: p.title }),
                      rejudging: editor.rejudging,
                    }}
                  />
                ))}
              </ul>
              {bank.query.hasNextPage && (
                <p className="bank-more">
                  <span className="muted">{t("bank.shown", { shown: formatCount(shown, locales), total: formatCount(bank.total, locales) })}</span>
                  <button
                    type="button"
                    className="btn btn-ghost"
                    disabled={bank.query.isFetchingNextPage}
                    onClick={() => {
                      focusAt.current = shown;
                      void bank.query.fetchNextPage();
                    }}
                  >
                    {bank.query.isFetchingNextPage ? t("bank.loadingMore") : t("bank.showMore")}
                  </button>
                </p>
              )}
            </>
          )}
        </QueryState>
      </section>
      {/* After the list, so the header and the list keep their keyboard order and phone layout. */}
      <p className="courses-note muted">
        <T ns={problems} k="page.coursesNote" components={{ 0: <Link href="/courses" /> }} />
      </p>
      <ProblemFormModal
        open={editor.modal.open}
        mode={editor.modal.mode}
        values={editor.modal.values}
        onChange={editor.setForm}
        onSubmit={editor.save}
        onCancel={editor.close}
        saving={editor.saving}
        error={editor.modal.error}
      />
    </Page>
  );
}
