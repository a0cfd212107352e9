/** On the solving page opened from an assignment: its title, the student's due time with a countdown, the state, and its policies. */
import { Link } from "wouter";
import type { RouterOutputs } from "../lib/trpc.ts";
import { AI_WORDS, countdown, FEEDBACK_WORDS, stateLabel } from "./format.ts";
import { useNow } from "./useNow.ts";
import { DateTime } from "../components/DateTime.tsx";

export function AssignmentBanner({ assignment: a }: { assignment: RouterOutputs["assignments"]["byId"] }) {
  const now = useNow(15_000);
  return (
    <aside className="assignment-banner" aria-label="Assignment" data-testid="assignment-banner">
      <p>
        <Link href={`/assignments/${a.id}`}>
          <strong>{a.title}</strong>
        </Link>{" "}
        <span className={`state-badge state-${a.state}`}>{stateLabel(a.state, a.window.dueAt, a.window.close, now)}</span>
      </p>
      {a.window.dueAt && (
        <p className="muted">
          Due <DateTime value={a.window.dueAt} withZone />
          {countdown(a.window.dueAt, now) && ` (${countdown(a.window.dueAt, now)})`}
          {a.window.close && a.window.close !== a.window.dueAt && (
            <>
              {" · late until "}
              <DateTime value={a.window.close} withZone />, {a.latePenaltyPercent}% off per {a.latePenaltyUnit}
            </>
          )}
        </p>
      )}
      <p className="muted">
        Feedback: {FEEDBACK_WORDS[a.feedback]} · AI review: {AI_WORDS[a.aiPolicy]}
      </p>
    </aside>
  );
}
