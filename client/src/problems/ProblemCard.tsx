/**
 * One problem in the list: title, difficulty badge, the description clamped
 * to two lines, "Created by another user" for others' problems, Solve and My
 * Submissions, and for the owner Edit, Export (a Kattis / ICPC package zip),
 * Rejudge (every judged submission, after tests changed) and Delete (with a
 * confirmation step).
 */
import { lazy, Suspense } from "react";
import { Link } from "wouter";

/** Markdown with math, in its own chunk (KaTeX stays out of the initial JavaScript). */
const StatementMarkdown = lazy(() => import("../components/StatementMarkdown.tsx"));
import type { Difficulty, Problem } from "../lib/types.ts";
import { useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";
import { listOf } from "./list-format.ts";

const BADGE_KEYS = { easy: "badge.easy", medium: "badge.medium", hard: "badge.hard" } as const satisfies Record<Difficulty, string>;

interface Props {
  problem: Problem;
  mine: boolean;
  confirmingDelete: boolean;
  deleting: boolean;
  onEdit: () => void;
  onAskDelete: () => void;
  onConfirmDelete: () => void;
  onKeep: () => void;
  /** Rejudge every judged submission (owner). */
  onRejudge: () => void;
  rejudging: boolean;
}

export function ProblemCard({ problem: p, mine, confirmingDelete, deleting, onEdit, onAskDelete, onConfirmDelete, onKeep, onRejudge, rejudging }: Props) {
  const t = useT(problems);
  return (
    <li className="card problem-card" data-testid="problem-card">
      <div className="problem-card-head">
        <h2 className="problem-card-title">{p.title}</h2>
        {/* The badges wrap among themselves, so longer words (other languages) do not squeeze the title. */}
        <span className="problem-card-badges">
          {p.interactive && <span className="badge badge-kind">{t("badge.interactive")}</span>}
          {p.validationPasses > 1 && <span className="badge badge-kind">{t("badge.multiPass")}</span>}
          {p.scoring && (
            <span className="badge badge-kind" title={listOf(p.scoring.groups.map((g) => t("badge.groupPoints", { name: g.name, points: g.maxScore })))}>
              {t("badge.subtasks", { points: p.scoring.maxScore })}
            </span>
          )}
          <span className={`badge badge-${p.difficulty}`}>{t(BADGE_KEYS[p.difficulty])}</span>
        </span>
      </div>
      <Suspense fallback={<p className="clamp-2 muted statement-preview">{p.description}</p>}>
        <div className="clamp-2 muted statement-md statement-preview">
          <StatementMarkdown text={p.description} preview />
        </div>
      </Suspense>
      {!mine && <p className="owner-note">{t("card.byAnotherUser")}</p>}
      <div className="card-actions">
        <Link href={`/solve/${p._id}`} className="btn btn-primary btn-sm">
          {t("card.solve")}
        </Link>
        <Link href={`/my-submissions/${p._id}`} className="btn btn-ghost btn-sm">
          {t("card.mySubmissions")}
        </Link>
        {mine &&
          (confirmingDelete ? (
            <span className="confirm-delete" style={{ flexWrap: "wrap" }} role="group" aria-label={t("card.confirmGroup", { title: p.title })}>
              <button type="button" className="btn btn-danger btn-sm" onClick={onConfirmDelete} disabled={deleting}>
                {t("card.confirmDelete")}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={onKeep}>
                {t("card.keep")}
              </button>
            </span>
          ) : (
            <>
              <button type="button" className="btn btn-ghost btn-sm" onClick={onEdit} aria-label={t("card.editLabel", { title: p.title })}>
                {t("card.edit")}
              </button>
              {/* The session cookie authorises the download; the server checks ownership. */}
              <a className="btn btn-ghost btn-sm" href={`/api/problems/${encodeURIComponent(p._id)}/package`} download aria-label={t("card.exportLabel", { title: p.title })}>
                {t("card.export")}
              </a>
              <button type="button" className="btn btn-ghost btn-sm" onClick={onRejudge} disabled={rejudging} aria-label={t("card.rejudgeLabel", { title: p.title })}>
                {t("card.rejudge")}
              </button>
              <button type="button" className="btn btn-danger-ghost btn-sm" onClick={onAskDelete} aria-label={t("card.deleteLabel", { title: p.title })}>
                {t("card.delete")}
              </button>
            </>
          ))}
      </div>
    </li>
  );
}
