/**
 * The one page wrapper, used by every screen: the skip link, the site header,
 * `<main id="main">` (focusable, the skip link's target) and the footer; it
 * names the browser tab through `useDocumentTitle` and, after an in-app
 * navigation, puts focus on the new page's heading (`useFocusOnNavigate`).
 *
 * @example <Page title="Courses"><h1 className="page-title">Courses</h1>…</Page>
 */
import type { ReactNode } from "react";
import { SiteFooter } from "./SiteFooter.tsx";
import { SiteHeader, SkipLink } from "./SiteHeader.tsx";
import { useDocumentTitle } from "./useDocumentTitle.ts";
import { useFocusOnNavigate } from "./useFocusOnNavigate.ts";

export interface PageProps {
  /** The tab's title before " · CodeArena" (null while unknown: "CodeArena"). */
  title: string | null | undefined;
  /** `normal` (a reading width), `wide` (tables, editors), `bare` (the page lays out its own containers) or `flush` (no padding either: the landing page). */
  width?: "normal" | "wide" | "bare" | "flush";
  /** Extra classes on `<main>`. */
  className?: string;
  /** Extra classes on the page's outer box. */
  pageClassName?: string;
  /** Without the footer (the solving page fills the window). */
  noFooter?: boolean;
  children: ReactNode;
}

export function Page({ title, width = "normal", className, pageClassName, noFooter, children }: PageProps) {
  useDocumentTitle(title);
  useFocusOnNavigate();
  const widthClass = { normal: "container", wide: "container-wide", bare: "", flush: "flush" }[width];
  return (
    <div className={`page${pageClassName ? ` ${pageClassName}` : ""}`}>
      <SkipLink />
      <SiteHeader />
      <main id="main" tabIndex={-1} className={["page-main", widthClass, className].filter(Boolean).join(" ")}>
        {children}
      </main>
      {!noFooter && <SiteFooter />}
    </div>
  );
}
