/**
 * A course page's announcements: every member reads them (newest first, the
 * body as Markdown, sanitised); staff with `announcement.post` get a form to
 * post one (each other member is notified) and may delete their own (the
 * course's owner any).
 */
import { lazy, Suspense, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import "./notifications.css";
import { TextArea, TextField } from "../kit/index.ts";
import { QueryState } from "../components/QueryState.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { notifications } from "../i18n/catalog/notifications/index.ts";

const StatementMarkdown = lazy(() => import("../components/StatementMarkdown.tsx"));

export function Announcements({ courseId }: { courseId: string }) {
  const t = useT(notifications);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.notifications.announcements.queryOptions({ courseId }));
  const post = useMutation(trpc.notifications.announce.mutationOptions());
  const remove = useMutation(trpc.notifications.deleteAnnouncement.mutationOptions());
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const { notice, run } = useNotice();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.notifications.announcements.queryKey({ courseId }) });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const done = await run(() => post.mutateAsync({ courseId, title, body }), { success: t("announce.posted"), error: t("announce.failed"), successMs: 4000 });
    if (done) {
      setTitle("");
      setBody("");
      await refresh();
    }
  }

  return (
    <section aria-labelledby="announcements-title" className="announcements">
      <h2 id="announcements-title">{t("announce.title")}</h2>
      <QueryState query={list} loading={t("announce.loading")} error={t("announce.loadFailed")}>
        {({ items, canPost }) => (
          <>
            {canPost && (
              <div className="card">
                <form onSubmit={submit} aria-labelledby="announce-form-title">
                  <h3 id="announce-form-title">{t("announce.new")}</h3>
                  <TextField label={t("announce.titleField")} value={title} required maxLength={200} onChange={(e) => setTitle(e.currentTarget.value)} />
                  <TextArea label={t("announce.bodyField")} description={t("announce.bodyHint")} value={body} required rows={5} onChange={(e) => setBody(e.currentTarget.value)} />
                  <button type="submit" className="btn btn-primary btn-sm" disabled={post.isPending}>
                    {t("announce.submit")}
                  </button>
                </form>
              </div>
            )}
            <FormMessage notice={notice} />
            {items.length === 0 ? (
              <p className="muted">{t("announce.empty")}</p>
            ) : (
              <ul className="plain-list" data-testid="announcements">
                {items.map((a) => (
                  <li key={a.id} className="announcement">
                    <article aria-labelledby={`announcement-${a.id}`}>
                      <h3 id={`announcement-${a.id}`} dir="auto">
                        {a.title}
                      </h3>
                      <p className="muted notice-meta">
                        {a.author ? (
                          <T ns={notifications} k="announce.byline" values={{ author: a.author }} components={{ 0: <DateTime value={a.createdAt} mode="auto" /> }} />
                        ) : (
                          <DateTime value={a.createdAt} mode="auto" />
                        )}
                      </p>
                      <Suspense fallback={<p className="statement-text">{a.body}</p>}>
                        <StatementMarkdown text={a.body} />
                      </Suspense>
                      {a.canDelete && (
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm"
                          aria-label={t("announce.deleteLabel", { title: a.title })}
                          disabled={remove.isPending}
                          onClick={async () => {
                            await run(() => remove.mutateAsync({ courseId, id: a.id }), { success: t("announce.deleted"), error: t("announce.deleteFailed"), successMs: 4000 });
                            await refresh();
                          }}
                        >
                          {t("announce.delete")}
                        </button>
                      )}
                    </article>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
