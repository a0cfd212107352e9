/** A link from a course's roster or gradebook to a student's progress within the course (staff screens). */
import { Link } from "wouter";
import { useT } from "../i18n/index.tsx";
import { progressNs } from "../i18n/catalog/progress/index.ts";

export function StudentProgressLink({ courseId, userId, name }: { courseId: string; userId: string; name: string }) {
  const t = useT(progressNs);
  return (
    <Link href={`/courses/${courseId}/students/${userId}/progress`} aria-label={t("student.linkLabel", { name })}>
      {t("student.link")}
    </Link>
  );
}
