/** A course's assignments: each with its state for the viewer ("due in 5 hours"), dates in local time, and a student's score. */
import { Link } from "wouter";
import type { RouterOutputs } from "../lib/trpc.ts";
import { stateLabel } from "./format.ts";
import { DateTime } from "../components/DateTime.tsx";

type Assignment = RouterOutputs["assignments"]["list"][number];

export function AssignmentList({ assignments, now, staff }: { assignments: Assignment[]; now: number; staff: boolean }) {
  if (!assignments.length) {
    return (
      <div className="empty-state">
        <h2>No assignments yet</h2>
        <p className="muted">{staff ? "Create the first one with New Assignment." : "Your instructor has not published any assignment."}</p>
      </div>
    );
  }
  return (
    <ul className="assignment-list">
      {assignments.map((as) => (
        <li key={as.id} className="card assignment-card" data-testid="assignment-card">
          <div className="problem-card-head">
            <h3 className="problem-card-title">
              <Link href={`/assignments/${as.id}`}>{as.title}</Link>
            </h3>
            <span className={`state-badge state-${as.state}`}>{stateLabel(as.state, as.window.dueAt, as.window.close, now)}</span>
          </div>
          <p className="muted">
            Opens <DateTime value={as.opensAt} withZone />
            {as.window.dueAt && <> · Due <DateTime value={as.window.dueAt} withZone /></>}
            {as.window.extended && " (your extension)"}
          </p>
          {as.myScore && (
            <p className="score-line">
              Score: <strong>{as.myScore.total}</strong> / {as.totalPoints}
            </p>
          )}
          {staff && (
            <div className="card-actions">
              <Link href={`/assignments/${as.id}/gradebook`} className="btn btn-ghost btn-sm">
                Gradebook
              </Link>
              <Link href={`/assignments/${as.id}/edit`} className="btn btn-ghost btn-sm">
                Edit
              </Link>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
