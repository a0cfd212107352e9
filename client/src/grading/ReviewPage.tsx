/**
 * A submission's review (`/submissions/:id/review`): staff grade it (rubric
 * items, line comments from the course's comment bank, release); its student
 * reads a released review with the comments under their lines and may ask
 * for a regrade. The server decides who sees what (a draft is a 404 to the
 * student); this page only shows the answer.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { Page } from "../components/shell/Page.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { VerdictBadge } from "../components/VerdictBadge.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { grading } from "../i18n/catalog/grading/index.ts";
import { StaffReview } from "./StaffReview.tsx";
import { StudentReview } from "./StudentReview.tsx";
import type { Review } from "./review-types.ts";

export default function ReviewPage({ submissionId }: { submissionId: string }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.grading.review.queryOptions({ id: submissionId }), retry: false, refetchOnWindowFocus: false });
  const title = query.data ? t("review.documentTitleOf", { problem: query.data.submission.problemTitle }) : t("review.documentTitle");
  return (
    <Page title={title} width="wide">
      <QueryState query={query} loading={t("review.loading")} error={t("review.loadFailed")}>
        {(r) => (
          <>
            <ReviewHeading r={r} />
            {r.viewer === "staff" ? <StaffReview key={r.submission.id} r={r} /> : <StudentReview r={r} />}
          </>
        )}
      </QueryState>
    </Page>
  );
}

function ReviewHeading({ r }: { r: Review }) {
  const t = useT(grading);
  const s = r.submission;
  return (
    <div className="page-heading">
      <div>
        <h1 className="page-title">{t("review.title", { problem: s.problemTitle })}</h1>
        <p className="muted">
          <Link href={`/assignments/${s.assignmentId}`}>{s.assignmentTitle}</Link>
          {r.viewer === "staff" && <> · {t("review.student", { name: `${s.student.firstName} ${s.student.lastName}`.trim() })}</>} · <VerdictBadge verdict={s.verdict} /> ·{" "}
          <DateTime value={s.createdAt} mode="auto" />
        </p>
      </div>
    </div>
  );
}
