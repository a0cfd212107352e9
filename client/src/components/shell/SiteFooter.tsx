/** The one site footer: what the site is, quick links, legal and support (the accessibility statement among them). */
import { Link } from "wouter";
import { yearOf } from "../../lib/dates.ts";
import { LanguageNames } from "../LanguageNames.tsx";
import { Brand } from "./SiteHeader.tsx";

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
        <nav aria-label="Quick links">
          <h2 className="footer-heading">Quick links</h2>
          <ul>
            <li>
              <Link href="/about">About us</Link>
            </li>
            <li>
              <Link href="/problems">Browse problems</Link>
            </li>
            <li>
              <Link href="/contests">Contests</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal and support">
          <h2 className="footer-heading">Legal &amp; support</h2>
          <ul>
            <li>
              <Link href="/privacy">Privacy policy</Link>
            </li>
            <li>
              <Link href="/terms">Terms of service</Link>
            </li>
            <li>
              <Link href="/accessibility">Accessibility</Link>
            </li>
            <li>
              <Link href="/contact">Contact us</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom muted">© {yearOf()} CodeArena. All rights reserved.</div>
    </footer>
  );
}
