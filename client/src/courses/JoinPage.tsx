/** /join/:code: the invite link. Joins the course and opens it; says why when it cannot. */
import { Page } from "../components/shell/Page.tsx";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { useMutation } from "@tanstack/react-query";
import { Spinner } from "../components/Loading.tsx";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";
import { translate, useT } from "../i18n/index.tsx";
import { courses } from "../i18n/catalog/courses/index.ts";

export default function JoinPage({ code }: { code: string }) {
  const t = useT(courses);
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const join = useMutation(trpc.courses.join.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    join.mutateAsync({ code }).then(
      (course) => navigate(`/courses/${course.id}`, { replace: true }),
      (err) => setError(serverMessageOf(err) ?? translate(courses, "join.failed")),
    );
  }, [code, join, navigate]);
  return (
    <Page title={t("join.documentTitle")}>
        {error ? (
          <div className="empty-state">
            <h2>{t("join.errorTitle")}</h2>
            <p className="alert alert-error" role="alert">
              {error}
            </p>
            <Link href="/courses" className="btn btn-primary">
              {t("list.title")}
            </Link>
          </div>
        ) : (
          <div className="center-state" role="status">
            <Spinner /> {t("join.joining")}
          </div>
        )}
      </Page>
  );
}
