/**
 * The bell in the site header (signed in only): a link to one's notices whose
 * accessible name carries the unread count ("Notifications, 3 unread"); the
 * count is also shown as a badge (hidden from assistive technology, which
 * reads the name). Refreshed every minute and when the window regains focus.
 */
import { useQuery } from "@tanstack/react-query";
import { Link, useLocation } from "wouter";
import "./notifications.css";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { notifications } from "../i18n/catalog/notifications/index.ts";

/** How often the count is asked again, ms. */
const REFRESH_MS = 60_000;

export function Bell({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT(notifications);
  const trpc = useTRPC();
  const [location] = useLocation();
  const count = useQuery({ ...trpc.notifications.unreadCount.queryOptions(), refetchInterval: REFRESH_MS });
  const unread = count.data?.unread ?? 0;
  return (
    <Link
      href="/notifications"
      className="btn btn-ghost btn-sm notice-bell"
      aria-label={t("bell.label", { count: unread })}
      aria-current={location === "/notifications" ? "page" : undefined}
      data-testid="notification-bell"
      onClick={onNavigate}
    >
      <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.7 21a2 2 0 0 1-3.4 0" />
      </svg>
      {unread > 0 && (
        <span className="notice-badge" aria-hidden="true">
          {unread > 99 ? t("bell.overflow") : unread}
        </span>
      )}
    </Link>
  );
}
