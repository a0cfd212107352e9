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
import type { Problem } from "../lib/types.ts";

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
  return (
    <li className="card problem-card" data-testid="problem-card">
      <div className="problem-card-head">
        <h2 className="problem-card-title">{p.title}</h2>
        {p.interactive && <span className="badge badge-kind">INTERACTIVE</span>}
        {p.validationPasses > 1 && <span className="badge badge-kind">MULTI-PASS</span>}
        {p.scoring && <span className="badge badge-kind" title={p.scoring.groups.map((g) => `${g.name}: ${g.maxScore}`).join(", ")}>SUBTASKS · {p.scoring.maxScore} PTS</span>}
        <span className={`badge badge-${p.difficulty}`}>{p.difficulty.toUpperCase()}</span>
      </div>
      <Suspense fallback={<p className="clamp-2 muted">{p.description}</p>}>
        <div className="clamp-2 muted statement-md statement-preview">
          <StatementMarkdown text={p.description} preview />
        </div>
      </Suspense>
      {!mine && <p className="owner-note">Created by another user</p>}
      <div className="card-actions">
        <Link href={`/solve/${p._id}`} className="btn btn-primary btn-sm">
          Solve
        </Link>
        <Link href={`/my-submissions/${p._id}`} className="btn btn-ghost btn-sm">
          My Submissions
        </Link>
        {mine &&
          (confirmingDelete ? (
            <span className="confirm-delete" role="group" aria-label={`Confirm deleting ${p.title}`}>
              <button type="button" className="btn btn-danger btn-sm" onClick={onConfirmDelete} disabled={deleting}>
                Confirm Delete
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={onKeep}>
                Keep
              </button>
            </span>
          ) : (
            <>
              <button type="button" className="btn btn-ghost btn-sm" onClick={onEdit} aria-label={`Edit ${p.title}`}>
                Edit
              </button>
              {/* The session cookie authorises the download; the server checks ownership. */}
              <a className="btn btn-ghost btn-sm" href={`/api/problems/${encodeURIComponent(p._id)}/package`} download aria-label={`Export ${p.title} as a package`}>
                Export
              </a>
              <button type="button" className="btn btn-ghost btn-sm" onClick={onRejudge} disabled={rejudging} aria-label={`Rejudge all submissions of ${p.title}`}>
                Rejudge
              </button>
              <button type="button" className="btn btn-danger-ghost btn-sm" onClick={onAskDelete} aria-label={`Delete ${p.title}`}>
                Delete
              </button>
            </>
          ))}
      </div>
    </li>
  );
}
