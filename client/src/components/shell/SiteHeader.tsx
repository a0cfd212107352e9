/**
 * The one site header, on every page: a skip link to the main content, the
 * brand (its accessible name is its visible text), a `nav` landmark "Main"
 * with Problems, Courses, Contests and, signed in, Progress (the current section marked
 * `aria-current`), then for the signed-in an account menu (My submissions, Account, Admin for
 * admins only, Sign out) and for guests Sign in / Sign up (coming back to the
 * page they are on), the notifications bell for the signed-in (../../notifications/Bell.tsx), the language menu (everyone, LanguageMenu.tsx) and the theme
 * switch. Below 768 px the links fold behind a "Menu" button (a disclosure).
 * The account menu is a disclosure of links, not an ARIA menu: Escape or a
 * click elsewhere closes it and Escape returns focus to its button.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { useAuth } from "../../lib/auth.tsx";
import { useNextParam, withNext } from "../../lib/next.ts";
import { ThemeToggle } from "../ThemeToggle.tsx";
import { useT } from "../../i18n/index.tsx";
import { common } from "../../i18n/catalog/common/index.ts";
import { LanguageMenu } from "./LanguageMenu.tsx";
import { Bell } from "../../notifications/Bell.tsx";

export function Brand() {
  const t = useT(common);
  return (
    <Link href="/" className="brand">
      <span className="brand-mark" aria-hidden="true">
        {"{}"}
      </span>
      <span className="brand-name">CodeArena{/* i18n-ignore: the brand */}</span>
      <span className="beta-badge">{t("header.beta")}</span>
    </Link>
  );
}

const SECTIONS = [
  { href: "/problems", label: "header.problems", also: ["/solve", "/my-submissions"] },
  { href: "/courses", label: "header.courses", also: ["/assignments", "/join"] },
  { href: "/contests", label: "header.contests", also: [] },
] as const;

function isIn(location: string, href: string, also: readonly string[]): boolean {
  return [href, ...also].some((p) => location === p || location.startsWith(`${p}/`));
}

/** A small "skip to main content" link, the first thing Tab reaches; shown when focused. */
export function SkipLink({ target = "main" }: { target?: string }) {
  const t = useT(common);
  return (
    <a
      className="skip-link"
      href={`#${target}`}
      onClick={(e) => {
        const main = document.getElementById(target);
        if (!main) return;
        e.preventDefault();
        main.focus();
        main.scrollIntoView();
      }}
    >
      {t("skipToMain")}
    </a>
  );
}

/** Closes an open disclosure on Escape (focus back to its button) and on a click or focus outside it. */
function useDismiss(open: boolean, close: () => void, box: React.RefObject<HTMLElement | null>, button: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return; // i18n-ignore: a key name
      close();
      button.current?.focus();
    };
    const onOutside = (e: Event) => {
      if (box.current && e.target instanceof Node && !box.current.contains(e.target)) close();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onOutside);
    document.addEventListener("focusin", onOutside);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onOutside);
      document.removeEventListener("focusin", onOutside);
    };
  }, [open, close, box, button]);
}

function Chevron() {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M6 9l6 6 6-6" />
    </svg>
  );
}

function AccountMenu({ onNavigate }: { onNavigate: () => void }) {
  const t = useT(common);
  const { user, rights, logout } = useAuth();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useDismiss(open, () => setOpen(false), box, button);
  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.email : t("header.accountFallback");
  const go = () => {
    setOpen(false);
    onNavigate();
  };
  return (
    <div className="account-menu" ref={box}>
      <button ref={button} type="button" className="btn btn-ghost btn-sm account-button" aria-expanded={open} aria-controls="account-menu-list" aria-label={t("header.accountMenu", { name })} onClick={() => setOpen((o) => !o)}>
        <span className="account-name">{name}</span>
        <Chevron />
      </button>
      <ul id="account-menu-list" className="account-menu-list" hidden={!open}>
        <li>
          <Link href="/my-submissions" onClick={go}>
            {t("header.mySubmissions")}
          </Link>
        </li>
        <li>
          <Link href="/account" onClick={go}>
            {t("header.account")}
          </Link>
        </li>
        {rights?.admin && (
          <li>
            <Link href="/admin" onClick={go}>
              {t("header.admin")}
            </Link>
          </li>
        )}
        <li>
          <button
            type="button"
            onClick={async () => {
              go();
              await logout();
              navigate("/");
            }}
          >
            {t("header.signOut")}
          </button>
        </li>
      </ul>
    </div>
  );
}

export function SiteHeader({ wide = true }: { wide?: boolean }) {
  const t = useT(common);
  const { status } = useAuth();
  const [location] = useLocation();
  const search = useSearch();
  const next = useNextParam();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useDismiss(open, () => setOpen(false), box, button);
  useEffect(() => setOpen(false), [location]);
  const close = () => setOpen(false);

  let account: ReactNode = null;
  if (status === "authenticated")
    account = (
      <>
        <Bell onNavigate={close} />
        <AccountMenu onNavigate={close} />
      </>
    );
  else if (status === "unauthenticated") {
    // Signing in from the header comes back to this page (the sign-in pages pass their own `next` on; the landing page leads to /problems).
    const back = location === "/" || location === "/signin" || location === "/signup" ? next : `${location}${search ? `?${search}` : ""}`;
    account = (
      <>
        <Link href={withNext("/signin", back)} className="btn btn-ghost btn-sm" onClick={close}>
          {t("header.signIn")}
        </Link>
        <Link href={withNext("/signup", back)} className="btn btn-primary btn-sm" onClick={close}>
          {t("header.signUp")}
        </Link>
      </>
    );
  }

  return (
    <header className="site-header">
      <div className={`${wide ? "container-wide" : "container"} site-header-inner`}>
        <Brand />
        <nav className="site-nav" aria-label={t("header.main")} ref={box}>
          <button ref={button} type="button" className="btn btn-ghost btn-sm nav-menu-button" aria-expanded={open} aria-controls="site-nav-panel" onClick={() => setOpen((o) => !o)}>
            <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
              {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
            {t("header.menu")}
          </button>
          <div id="site-nav-panel" className={`site-nav-panel${open ? " open" : ""}`}>
            <ul className="site-nav-links">
              {SECTIONS.map((s) => (
                <li key={s.href}>
                  <Link href={s.href} className="site-nav-link" aria-current={isIn(location, s.href, s.also) ? "page" : undefined} onClick={close}>
                    {t(s.label)}
                  </Link>
                </li>
              ))}
              {status === "authenticated" && (
                <li>
                  <Link href="/progress" className="site-nav-link" aria-current={isIn(location, "/progress", []) ? "page" : undefined} onClick={close}>
                    {t("header.progress")}
                  </Link>
                </li>
              )}
            </ul>
            <div className="site-nav-account">{account}</div>
            <LanguageMenu className="site-nav-language" />
          </div>
          <ThemeToggle />
        </nav>
      </div>
    </header>
  );
}
