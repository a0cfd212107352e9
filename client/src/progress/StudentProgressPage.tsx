/**
 * `/courses/:id/students/:userId/progress`: a student's progress within one
 * course, for its staff (`progress.courseStudent`; the server refuses anyone
 * else: a student gets "Not allowed", a non-member "Page not found"). Only the
 * submissions made for the course's assignments count.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { Page } from "../components/shell/Page.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { dateZone } from "../lib/dates.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { progressNs } from "../i18n/catalog/progress/index.ts";
import { ProgressView } from "./ProgressView.tsx";

export default function StudentProgressPage({ courseId, userId }: { courseId: string; userId: string }) {
  const t = useT(progressNs);
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.progress.courseStudent.queryOptions({ courseId, userId, tz: dateZone() }), retry: false });
  const name = query.data ? `${query.data.student.firstName} ${query.data.student.lastName}`.trim() : "";
  return (
    <Page title={query.data ? t("student.title", { name, course: query.data.course.title }) : null} width="wide">
      <QueryState query={query} loading={t("loading")} error={t("failed")}>
        {(data) => (
          <>
            <div className="page-heading">
              <p>
                <Link href={`/courses/${data.course.id}`}>{t("student.back", { course: data.course.title })}</Link>
              </p>
              <h1 className="page-title">{t("student.title", { name, course: data.course.title })}</h1>
              <p className="muted">{t("student.scope")}</p>
            </div>
            <ProgressView progress={data.progress} />
          </>
        )}
      </QueryState>
    </Page>
  );
}
