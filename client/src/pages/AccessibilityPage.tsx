/**
 * The accessibility statement (EN 301 549 and the EU Web Accessibility
 * Directive ask for one): the standard the site meets, how it is tested,
 * what is known not to meet it yet, and how to report a barrier (the contact
 * form, which the server stores).
 */
import { Link } from "wouter";
import { Page } from "../components/shell/Page.tsx";

export function AccessibilityPage() {
  return (
    <Page title="Accessibility">
      <article className="prose">
        <h1>Accessibility statement</h1>
        <p className="muted">CodeArena is meant to be usable by everyone: with a keyboard alone, with a screen reader, zoomed to 400 %, in forced-colours (high contrast) mode and on a phone.</p>

        <h2>The standard we meet</h2>
        <p>
          We aim to conform to the <strong>Web Content Accessibility Guidelines (WCAG) 2.1, level AA</strong>, which is also what the European standard <strong>EN 301 549</strong> (clause 9, web content) asks of a web site, and
          what the EU Web Accessibility Directive and the US ADA Title II web rule require of public universities.
        </p>

        <h2>How we test it</h2>
        <ul>
          <li>
            <strong>Automated checks in a real browser</strong>: axe-core runs in Chromium on every route of the site, in the light and the dark theme, signed out, as a student and as staff, for the WCAG 2.0 and 2.1 A and AA rules;
            the build fails on any violation.
          </li>
          <li>
            <strong>A keyboard journey</strong>: an end-to-end test signs in, opens a problem, types a solution, submits it and reads the verdict with the keyboard only, checking where focus is at each step.
          </li>
          <li>
            <strong>The site's frame</strong>: tests check that every page has the same navigation landmark, a skip link to the main content, a title of its own, a menu that works at 390 px wide, and form controls whose
            labels sit beside them.
          </li>
          <li>
            <strong>By hand</strong>: pages are looked at in light, dark and phone widths before a release, and the focus indicator (a 3 px outline) is checked in forced-colours mode.
          </li>
        </ul>

        <h2>Known limitations</h2>
        <ul>
          <li>
            The code editor (Monaco) keeps the Tab key for indenting. Press <kbd>Ctrl</kbd>+<kbd>M</kbd> (or <kbd>Esc</kbd>) and then <kbd>Tab</kbd> to move focus out of it; the page says so before the editor.
          </li>
          <li>Problem statements are written by their authors: an image without a text alternative or a formula without a description can slip through. Report it and we will ask the author to fix it.</li>
          <li>The similarity report's side-by-side view of two programs is wide; at 400 % zoom it scrolls in both directions.</li>
          <li>Files exported for download (grade sheets as CSV, submission archives) are plain data without accessibility markup.</li>
        </ul>

        <h2>Report a barrier</h2>
        <p>
          If something on this site is hard or impossible for you to use, tell us through the <Link href="/contact">contact form</Link>: say which page, what you tried and what assistive technology you use, if any. A person reads every
          message, and barriers are fixed before other work. If you are a student and a barrier keeps you from an assignment or contest, also tell your instructor, who can grant an extension.
        </p>

        <h2>About this statement</h2>
        <p className="muted">This statement covers every page of this site, including pages opened from a learning management system. It is reviewed with every release.</p>
      </article>
    </Page>
  );
}
