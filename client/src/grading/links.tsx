/**
 * The grading screens' entrances on other pages: a submission's review (the
 * gradebook's submission list), an assignment's rubrics (staff), the course's
 * regrade queue (staff), and a student's released reviews on an assignment.
 */
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { DateTime } from "../components/DateTime.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { grading } from "../i18n/catalog/grading/index.ts";

export function ReviewLink({ submissionId }: { submissionId: string }) {
  const t = useT(grading);
  return (
    <Link href={`/submissions/${submissionId}/review`} className="btn btn-ghost btn-sm">
      {t("links.review")}
    </Link>
  );
}

export function RubricsLink({ assignmentId }: { assignmentId: string }) {
  const t = useT(grading);
  return (
    <Link href={`/assignments/${assignmentId}/rubrics`} className="btn btn-ghost btn-sm">
      {t("links.rubrics")}
    </Link>
  );
}

export function RegradeQueueLink({ courseId }: { courseId: string }) {
  const t = useT(grading);
  return (
    <Link href={`/courses/${courseId}/regrades`} className="btn btn-ghost btn-sm">
      {t("links.regrades")}
    </Link>
  );
}

/** The caller's released reviews on an assignment (nothing when there is none). */
export function MyReviews({ assignmentId }: { assignmentId: string }) {
  const t = useT(grading);
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.grading.myReviews.queryOptions({ assignmentId }), retry: false });
  if (!list.data?.length) return null;
  return (
    <section aria-labelledby="my-reviews-title" style={{ marginBlockStart: "1.5rem" }}>
      <h2 id="my-reviews-title">{t("links.myReviews")}</h2>
      <ul>
        {list.data.map((r) => (
          <li key={r.submissionId}>
            <Link href={`/submissions/${r.submissionId}/review`}>{t("links.reviewOf", { problem: r.problemTitle })}</Link> · <DateTime value={r.releasedAt} mode="auto" />
          </li>
        ))}
      </ul>
    </section>
  );
}
