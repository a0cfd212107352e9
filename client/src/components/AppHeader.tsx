/** Top bar of the signed-in screens: brand on the left, the screen's own actions on the right. */
import type { ReactNode } from "react";
import { useLocation } from "wouter";
import { Brand } from "./SiteChrome.tsx";

export function AppHeader({ children, left, wide = false }: { children?: ReactNode; left?: ReactNode; wide?: boolean }) {
  return (
    <header className="site-header app-header">
      <div className={`${wide ? "container-wide" : "container"} site-header-inner`}>
        <div className="app-header-left">
          {left}
          <Brand />
        </div>
        <div className="app-header-actions">{children}</div>
      </div>
    </header>
  );
}

/** "Back" button that returns to the previous page (or /problems when there is none). */
export function BackButton() {
  const [, navigate] = useLocation();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label="Go back"
      title="Go back"
      onClick={() => {
        if (window.history.length > 1) window.history.back();
        else navigate("/problems");
      }}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d="M19 12H5M12 19l-7-7 7-7" />
      </svg>
    </button>
  );
}
