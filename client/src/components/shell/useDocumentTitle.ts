/**
 * The one place a page names the browser tab: "Sum of Two Numbers · CodeArena",
 * or "CodeArena" when the page has no title (yet).
 */
import { useEffect } from "react";

export const SITE_NAME = "CodeArena";

/** Sets `document.title` to "`title` · CodeArena" while the calling page is shown. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE_NAME}` : SITE_NAME;
  }, [title]);
}
