/**
 * The one place a page names the browser tab: "Sum of Two Numbers · CodeArena",
 * or "CodeArena" when the page has no title (yet).
 */
import { useEffect } from "react";

export const SITE_NAME = "CodeArena"; // i18n-ignore: the brand

/** Sets `document.title` to "`title` · CodeArena" while the calling page is shown. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE_NAME}` : SITE_NAME; // the title is already in the page's language; " · " and the brand are not words
  }, [title]);
}
