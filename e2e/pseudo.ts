/**
 * Checks for the pseudo-locale (issue 34 §7), run on every route by
 * a11y.test.ts in its en-XA passes:
 *
 * - `untranslatedText`: every visible text node and every accessible-name
 *   attribute (aria-label, title, placeholder, alt) that still holds plain
 *   English words. In en-XA every letter of the interface's own text is
 *   accented (client/src/i18n/pseudo.ts), so a run of two ASCII letters is
 *   text that did not come from the catalogue, unless it is user content:
 *   code and program data (pre, code, textarea, the editor), statements,
 *   dates (`<time>`, formatted by dayjs), anything marked `translate="no"`,
 *   and the seeded names and titles the caller lists.
 * - `layoutBreaks`: a page wider than the window (horizontal scrolling) and
 *   text cut off by its box (an element that hides its overflow and whose
 *   content is wider or taller than it), at the window's width.
 */
import type { Page } from "playwright-core";

const USER_CONTENT = 'pre, code, kbd, samp, textarea, time, script, style, noscript, svg, .monaco-editor, .statement, .statement-md, .statement-preview, .markdown, .code-block, .pre-box, [translate="no"], .cm-editor';

/** Words that are never translated: verdict codes, language and product names. */
const KEEP = [
  "CodeArena", "AC", "WA", "TLE", "MLE", "RE", "CE", "OLE", "IE", "ICPC", "IOI", "LTI", "LMS", "CSV", "JSON", "URL", "ID", "AI",
  "C++", "C", "Java", "Python", "PyPy", "Go", "Rust", "JavaScript", "Kotlin", "Node.js", "TypeScript", "GCC", "OpenJDK", "Ctrl", "Esc", "Tab", "Shift", "Enter",
  "MiB", "KiB", "GiB", "ms", "GitHub", "Moodle", "Canvas", "OpenID", "LDAP", "WCAG", "AA", "EN", "axe", "Chromium", "Monaco", "KaTeX", "Markdown", "LaTeX", "Kattis", "Polygon", "UTC", "GMT",
];

/** Texts from the page that are plain English after removing `allowed` strings and the KEEP words; each as "where: text". */
export async function untranslatedText(page: Page, allowed: readonly string[]): Promise<string[]> {
  const found = await page.evaluate((skip) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      const text = n.textContent?.trim() ?? "";
      if (!parent || !text || parent.closest(skip)) continue;
      if (!parent.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) continue;
      out.push(`<${parent.tagName.toLowerCase()}>: ${text}`);
    }
    for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
      if (el.closest(skip)) continue;
      for (const attr of ["aria-label", "title", "placeholder", "alt"]) {
        const v = el.getAttribute(attr)?.trim();
        if (v) out.push(`${el.tagName.toLowerCase()}[${attr}]: ${v}`);
      }
    }
    out.push(`<title>: ${document.title}`);
    return out;
  }, USER_CONTENT);
  const strip = [...allowed, ...KEEP].filter(Boolean).sort((a, b) => b.length - a.length);
  return found.filter((entry) => {
    let text = entry.slice(entry.indexOf(": ") + 2);
    for (const s of strip) text = text.split(s).join(" ");
    text = text.replace(/\S+@\S+\.\S+/g, " ").replace(/https?:\/\/\S+/g, " ").replace(/\/[\w\-/.:?=&]+/g, " ");
    // Codes (invite and registration codes, ids): words with a digit in them.
    text = text.replace(/\b(?=[A-Za-z]*\d)[A-Za-z0-9]+\b/g, " ");
    return /[A-Za-z]{2,}/.test(text);
  });
}

/** Layout faults at the current window size: horizontal scrolling, and elements whose text is cut off; each as a short description. */
export async function layoutBreaks(page: Page): Promise<string[]> {
  return page.evaluate((skip) => {
    const out: string[] = [];
    const doc = document.scrollingElement ?? document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1) out.push(`the page is ${doc.scrollWidth}px wide in a ${window.innerWidth}px window`);
    for (const el of document.body.querySelectorAll<HTMLElement>("*")) {
      if (el.closest(skip) || !el.checkVisibility()) continue;
      const style = getComputedStyle(el);
      const hidesX = style.overflowX === "hidden" || style.overflowX === "clip";
      const hidesY = style.overflowY === "hidden" || style.overflowY === "clip";
      if (!hidesX && !hidesY) continue;
      if (!el.textContent?.trim() || el.getAttribute("aria-hidden") === "true") continue;
      if (el.clientWidth <= 1 || el.clientHeight <= 1) continue; // visually hidden (sr-only) text
      const cutX = hidesX && el.scrollWidth > el.clientWidth + 2;
      const cutY = hidesY && el.scrollHeight > el.clientHeight + 2;
      if (cutX || cutY) out.push(`<${el.tagName.toLowerCase()} class="${el.className}"> cuts off its text (${cutX ? `${el.scrollWidth} > ${el.clientWidth} wide` : `${el.scrollHeight} > ${el.clientHeight} tall`}): ${el.textContent.trim().slice(0, 50)}`);
    }
    return out;
  }, USER_CONTENT);
}
