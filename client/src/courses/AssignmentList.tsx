/** A course's assignments: each with its state for the viewer ("due in 5 hours"), dates in local time, and a student's score. */
import { Link } from "wouter";
import type { RouterOutputs } from "../lib/trpc.ts";
import { stateLabel } from "./format.ts";
import { DateTime } from "../components/DateTime.tsx";
import { T, useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";

type Assignment = RouterOutputs["assignments"]["list"][number];

export function AssignmentList({ assignments, now, staff }: { assignments: Assignment[]; now: number; staff: boolean }) {
  const t = useT(courses);
  if (!assignments.length) {
    return (
      <div className="empty-state">
        <h2>{t("assignments.emptyTitle")}</h2>
        <p className="muted">{staff ? t("assignments.emptyStaff") : t("assignments.emptyStudent")}</p>
      </div>
    );
  }
  return (
    <ul className="assignment-list">
      {assignments.map((as) => {
        const opens = <DateTime value={as.opensAt} withZone />;
        const due = as.window.dueAt ? <DateTime value={as.window.dueAt} withZone /> : null;
        return (
          <li key={as.id} className="card assignment-card" data-testid="assignment-card">
            <div className="problem-card-head">
              <h3 className="problem-card-title">
                <Link href={`/assignments/${as.id}`}>{as.title}</Link>
              </h3>
              <span className={`state-badge state-${as.state}`}>{stateLabel(as.state, as.window.dueAt, as.window.close, now, t)}</span>
            </div>
            <p className="muted">
              {!due ? (
                <T ns={courses} k="assignments.opens" values={{ opens }} />
              ) : as.window.extended ? (
                <T ns={courses} k="assignments.opensDueExtended" values={{ opens, due }} />
              ) : (
                <T ns={courses} k="assignments.opensDue" values={{ opens, due }} />
              )}
            </p>
            {as.myScore && (
              <p className="score-line">
                <T ns={courses} k="assignments.score" values={{ score: as.myScore.total, total: as.totalPoints }} components={{ 0: <strong /> }} />
              </p>
            )}
            {staff && (
              <div className="card-actions">
                <Link href={`/assignments/${as.id}/gradebook`} className="btn btn-ghost btn-sm">
                  {t("assignments.gradebook")}
                </Link>
                <Link href={`/assignments/${as.id}/edit`} className="btn btn-ghost btn-sm">
                  {t("assignments.edit")}
                </Link>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
