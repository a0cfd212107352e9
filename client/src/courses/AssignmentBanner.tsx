/** On the solving page opened from an assignment: its title, the student's due time with a countdown, the state, and its policies. */
import { Link } from "wouter";
import type { RouterOutputs } from "../lib/trpc.ts";
import { aiWords, feedbackWords, stateLabel, timeLeft } from "./format.ts";
import { useNow } from "./useNow.ts";
import { DateTime } from "../components/DateTime.tsx";
import { T, useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";
import { ExamBannerClock } from "./exam/ExamPanel.tsx";

export function AssignmentBanner({ assignment: a }: { assignment: RouterOutputs["assignments"]["byId"] }) {
  const t = useT(courses);
  const now = useNow(15_000);
  const left = timeLeft(a.window.dueAt, now, t);
  return (
    <aside className="assignment-banner" aria-label={t("banner.label")} data-testid="assignment-banner">
      <p>
        <Link href={`/assignments/${a.id}`}>
          <strong>{a.title}</strong>
        </Link>{" "}
        <span className={`state-badge state-${a.state}`}>{stateLabel(a.state, a.window.dueAt, a.window.close, now, t)}</span>
      </p>
      {a.window.dueAt && (
        <p className="muted">
          {left ? (
            <T ns={courses} k="banner.dueCountdown" values={{ due: <DateTime value={a.window.dueAt} withZone />, duration: left }} />
          ) : (
            <T ns={courses} k="banner.due" values={{ due: <DateTime value={a.window.dueAt} withZone /> }} />
          )}
          {a.window.close && a.window.close !== a.window.dueAt && (
            <>
              {" · "}
              <T ns={courses} k="banner.late" values={{ close: <DateTime value={a.window.close} withZone />, percent: a.latePenaltyPercent, unit: a.latePenaltyUnit }} />
            </>
          )}
        </p>
      )}
      {a.myScore && a.exam.needsStart && <ExamBannerClock assignmentId={a.id} />}
      <p className="muted">
        {t("banner.feedback", { level: feedbackWords(a.feedback, t) })} · {t("banner.ai", { policy: aiWords(a.aiPolicy, t) })}
      </p>
    </aside>
  );
}
