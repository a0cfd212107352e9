/**
 * The public pages' top bar and footer (as on the landing page). The top bar
 * has the product name, Sign In / Sign Up and the dark-mode toggle; below
 * 768 px these fold into a menu listing All Problems, Easy, Medium, Hard (the
 * landing page's anchors), Sign In, Sign Up and a Light/Dark Mode switch.
 */
import { useEffect, useId, useState, type ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { useAuth } from "../lib/auth.tsx";
import { useTheme } from "../lib/theme.tsx";
import { LanguageNames } from "./LanguageNames.tsx";
import { MoonIcon, SunIcon, ThemeToggle } from "./ThemeToggle.tsx";
import { yearOf } from "../lib/dates.ts";

export function Brand() {
  return (
    <Link href="/" className="brand" aria-label="CodeArena home">
      <span className="brand-mark" aria-hidden="true">{"{}"}</span>
      <span className="brand-name">CodeArena</span>
      <span className="beta-badge">BETA</span>
    </Link>
  );
}

const ANCHORS = [
  { id: "problems", label: "All Problems" },
  { id: "easy", label: "Easy" },
  { id: "medium", label: "Medium" },
  { id: "hard", label: "Hard" },
];

export function SiteHeader() {
  const { status } = useAuth();
  const { dark, toggle } = useTheme();
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const onLanding = location === "/";

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  const signedIn = status === "authenticated";
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Brand />
        <nav className="site-nav" aria-label="Main">
          {signedIn ? (
            <Link href="/problems" className="btn btn-primary btn-sm">
              Problems
            </Link>
          ) : (
            <>
              <Link href="/signin" className="btn btn-ghost btn-sm">
                Sign In
              </Link>
              <Link href="/signup" className="btn btn-primary btn-sm">
                Sign Up
              </Link>
            </>
          )}
          <ThemeToggle />
        </nav>
        <button
          type="button"
          className="icon-button menu-button"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? "Close menu" : "Open menu"}
          onClick={() => setOpen((o) => !o)}
        >
          <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>
      {open && (
        <nav id={menuId} className="mobile-menu" aria-label="Mobile">
          {ANCHORS.map((a) => (
            <a key={a.id} href={onLanding ? `#${a.id}` : `/#${a.id}`} onClick={() => setOpen(false)}>
              {a.label}
            </a>
          ))}
          {signedIn ? (
            <Link href="/problems" onClick={() => setOpen(false)}>
              Problems
            </Link>
          ) : (
            <>
              <Link href="/signin" onClick={() => setOpen(false)}>
                Sign In
              </Link>
              <Link href="/signup" onClick={() => setOpen(false)}>
                Sign Up
              </Link>
            </>
          )}
          <button type="button" className="mobile-theme-switch" onClick={toggle} aria-pressed={dark}>
            {dark ? <SunIcon /> : <MoonIcon />}
            <span>{dark ? "Light Mode" : "Dark Mode"}</span>
          </button>
        </nav>
      )}
    </header>
  );
}

const SOCIAL = [
  { label: "GitHub", path: "M12 2a10 10 0 0 0-3.2 19.5c.5.1.7-.2.7-.5v-1.7c-2.8.6-3.4-1.3-3.4-1.3-.5-1.2-1.1-1.5-1.1-1.5-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.5 2.4 1.1 2.9.8.1-.7.4-1.1.6-1.3-2.2-.3-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.8 1a9.6 9.6 0 0 1 5 0c1.9-1.3 2.8-1 2.8-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.3 4.7-4.6 5 .4.3.7.9.7 1.9V21c0 .3.2.6.7.5A10 10 0 0 0 12 2z" },
  { label: "Twitter", path: "M22 5.9c-.7.3-1.5.5-2.4.6a4.1 4.1 0 0 0 1.8-2.3c-.8.5-1.7.8-2.6 1a4.1 4.1 0 0 0-7 3.7A11.6 11.6 0 0 1 3.4 4.6a4.1 4.1 0 0 0 1.3 5.5c-.7 0-1.3-.2-1.9-.5 0 2 1.4 3.7 3.3 4.1-.6.2-1.2.2-1.9.1a4.1 4.1 0 0 0 3.8 2.8A8.2 8.2 0 0 1 2 18.3 11.6 11.6 0 0 0 8.3 20c7.5 0 11.7-6.3 11.7-11.7v-.5c.8-.6 1.5-1.3 2-2z" },
  { label: "LinkedIn", path: "M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.5h4V21H3zM9.5 9.5h3.8v1.6h.1c.5-1 1.8-2 3.7-2 4 0 4.7 2.6 4.7 6V21h-4v-5.2c0-1.2 0-2.8-1.7-2.8s-2 1.3-2 2.7V21h-4z" },
];

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div>
          <Brand />
          <p className="muted footer-blurb">
            Practise algorithms in <LanguageNames />, get judged on real tests, and learn from every submission.
          </p>
        </div>
        <nav aria-label="Quick Links">
          <h2 className="footer-heading">Quick Links</h2>
          <ul>
            <li>
              <Link href="/about">About Us</Link>
            </li>
            <li>
              <Link href="/problems">Browse Problems</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal & Support">
          <h2 className="footer-heading">Legal &amp; Support</h2>
          <ul>
            <li>
              <Link href="/privacy">Privacy Policy</Link>
            </li>
            <li>
              <Link href="/terms">Terms of Service</Link>
            </li>
            <li>
              <Link href="/contact">Contact Us</Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="footer-heading">Follow Us</h2>
          <div className="social-links">
            {SOCIAL.map((s) => (
              <a key={s.label} href="#" aria-label={s.label} onClick={(e) => e.preventDefault()}>
                <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
                  <path d={s.path} />
                </svg>
              </a>
            ))}
          </div>
        </div>
      </div>
      <div className="container footer-bottom muted">© {yearOf()} CodeArena. All rights reserved.</div>
    </footer>
  );
}

/** Header + main + footer around a public page. */
export function PublicLayout({ children, flush = false }: { children: ReactNode; flush?: boolean }) {
  return (
    <div className="page">
      <SiteHeader />
      <main className={flush ? "page-main flush" : "page-main"}>{children}</main>
      <SiteFooter />
    </div>
  );
}
