/**
 * One's notices (`/notifications`), newest first, 50 a page with "Show
 * older": each leads to what it is about and can be marked read; "Mark all
 * read" clears the bell. Unread notices are marked in words, not colour alone.
 */
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import "./notifications.css";
import { Page } from "../components/shell/Page.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { notifications } from "../i18n/catalog/notifications/index.ts";
import { noticeHref, noticeText } from "./kinds.ts";

export default function NotificationsPage() {
  const t = useT(notifications);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useInfiniteQuery(
    trpc.notifications.list.infiniteQueryOptions({}, { getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined }),
  );
  const mark = useMutation(trpc.notifications.markRead.mutationOptions());
  const { notice, run } = useNotice();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const anyUnread = items.some((n) => n.readAt === null);

  async function markRead(input: { ids: string[] } | { all: true }, success: string) {
    await run(() => mark.mutateAsync(input), { success, error: t("list.markFailed"), successMs: 4000 });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.notifications.list.infiniteQueryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.notifications.unreadCount.queryKey() }),
    ]);
  }

  return (
    <Page title={t("list.title")}>
      <div className="page-heading">
        <h1 className="page-title">{t("list.title")}</h1>
      </div>
      <div className="card-actions page-actions">
        <button type="button" className="btn btn-ghost btn-sm" disabled={!anyUnread || mark.isPending} onClick={() => markRead({ all: true }, t("list.allMarked"))}>
          {t("list.markAll")}
        </button>
        <Link href="/account#notification-settings" className="btn btn-ghost btn-sm">
          {t("list.settings")}
        </Link>
      </div>
      <FormMessage notice={notice} />
      {list.isPending ? (
        <p className="muted" role="status">
          {t("list.loading")}
        </p>
      ) : list.isError ? (
        <p className="form-error" role="alert">
          {t("list.failed")}
        </p>
      ) : items.length === 0 ? (
        <p className="muted">{t("list.empty")}</p>
      ) : (
        <ul className="notice-list" data-testid="notices">
          {items.map((n) => {
            const text = noticeText(t, n.kind, n.payload);
            const unread = n.readAt === null;
            return (
              <li key={n.id} className={`notice-row${unread ? " unread" : ""}`}>
                <div>
                  <Link href={noticeHref(n)} className="notice-text" dir="auto">
                    {text}
                  </Link>
                  <p className="muted notice-meta">
                    {unread && <span className="badge badge-kind">{t("list.unread")}</span>} <DateTime value={n.createdAt} mode="relative" />
                  </p>
                </div>
                {unread && (
                  <button type="button" className="btn btn-ghost btn-sm" aria-label={t("list.markOneLabel", { text })} disabled={mark.isPending} onClick={() => markRead({ ids: [n.id] }, t("list.oneMarked"))}>
                    {t("list.markOne")}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {list.hasNextPage && (
        <button type="button" className="btn btn-ghost" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? t("list.loadingMore") : t("list.more")}
        </button>
      )}
    </Page>
  );
}
