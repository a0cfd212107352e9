/**
 * The problem list: difficulty tabs with counts (default easy, kept in the
 * URL as ?difficulty=), problem cards with ownership read from the token, and
 * the Create/Edit modal. Data and actions live in src/problems' hooks
 * (useProblemList, useProblemEditor); this page lays them out.
 */
import { useState } from "react";
import { Link, useSearchParams } from "wouter";
import { Page } from "../components/shell/Page.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { ProblemFormModal } from "../components/ProblemFormModal.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { DIFFICULTIES, type Difficulty } from "../lib/types.ts";
import { DifficultyTabs } from "../problems/DifficultyTabs.tsx";
import { ImportOutcomeMessage, ImportPackageButton, type ImportOutcome } from "../problems/ImportPackage.tsx";
import { ProblemCard } from "../problems/ProblemCard.tsx";
import { useProblemEditor } from "../problems/useProblemEditor.ts";
import { useProblemList } from "../problems/useProblemList.ts";
import { T, useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";

/** The empty state's heading and text per difficulty (whole sentences, one message each). */
const EMPTY = {
  easy: { title: "empty.easy.title", body: "empty.easy.body" },
  medium: { title: "empty.medium.title", body: "empty.medium.body" },
  hard: { title: "empty.hard.title", body: "empty.hard.body" },
} as const satisfies Record<Difficulty, { title: string; body: string }>;

export function ProblemsPage() {
  const t = useT(problems);
  // The tab lives in the URL (?difficulty=hard) so links can open a level and a reload keeps it.
  const [searchParams, setSearchParams] = useSearchParams();
  const wanted = searchParams.get("difficulty");
  const tab: Difficulty = DIFFICULTIES.find((d) => d === wanted) ?? DIFFICULTIES[0];
  const setTab = (d: Difficulty) => setSearchParams({ difficulty: d }, { replace: true });

  const list = useProblemList(tab);
  const [imported, setImported] = useState<ImportOutcome | null>(null);
  const editor = useProblemEditor(list.queryKey, setTab);

  return (
    <Page title={t("page.title")}>
        <div className="page-heading">
          <h1 className="page-title">{t("page.heading")}</h1>
          <p className="muted">{t("page.intro")}</p>
          <p className="page-actions">
            <button type="button" className="btn btn-primary btn-sm" onClick={editor.openCreate}>
              <span aria-hidden="true">+</span> {t("page.create")}
            </button>{" "}
            <ImportPackageButton difficulty={tab} listKey={list.queryKey} onImported={setTab} onOutcome={setImported} />
            <span className="muted"> {t("page.importHint")}</span>
          </p>
        </div>

        <FormMessage notice={editor.notice} />
        <ImportOutcomeMessage outcome={imported} onDismiss={() => setImported(null)} />

        <DifficultyTabs tab={tab} counts={list.counts} onSelect={setTab} panelId="problems-panel" />

        <section id="problems-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
          <QueryState
            query={list.query}
            loading={t("page.loading")}
            error={t("page.loadFailed")}
            isEmpty={() => list.shown.length === 0}
            empty={
              <div className="empty-state">
                <h2>{t(EMPTY[tab].title)}</h2>
                <p className="muted">{t(EMPTY[tab].body)}</p>
              </div>
            }
          >
            {() => (
              <ul className="problem-grid">
                {list.shown.map((p) => (
                  <ProblemCard
                    key={p._id}
                    problem={p}
                    mine={list.myId !== null && p.user === list.myId}
                    confirmingDelete={editor.confirmingDelete === p._id}
                    deleting={editor.deleting}
                    onEdit={() => editor.openEdit(p)}
                    onAskDelete={() => editor.setConfirmingDelete(p._id)}
                    onConfirmDelete={() => editor.del(p._id)}
                    onKeep={() => editor.setConfirmingDelete(null)}
                    onRejudge={() => void editor.rejudge(p)}
                    rejudging={editor.rejudging}
                  />
                ))}
              </ul>
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
