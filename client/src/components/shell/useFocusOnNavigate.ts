/**
 * Focus after a navigation inside the app, as a screen reader or keyboard user
 * expects from a page load: when the address changes (not on the first load,
 * where the browser starts at the top itself), the new page's main heading
 * (`main h1`) takes focus, else `main`. A page whose heading comes after its
 * data (the solving page) is waited for, up to HEADING_WAIT_MS; focus is moved
 * only while nothing else holds it (the activated link or button is gone, so
 * focus is on `body`): a person who has already clicked into a field keeps it.
 *
 * Source: the pattern of GOV.UK's and Reach Router's route focus management
 * (focus the new content's heading, tabindex="-1", no visible ring on a click).
 */
import { useEffect } from "react";
import { useLocation } from "wouter";

/** How long a page's heading is waited for after a navigation (ms). */
export const HEADING_WAIT_MS = 5000;

let firstLoad = true;

function focusHeading(): boolean {
  const active = document.activeElement;
  if (active && active !== document.body && active !== document.documentElement) return true; // someone else holds focus: leave it
  const heading = document.querySelector<HTMLElement>("main h1"); // i18n-ignore: a CSS selector
  if (!heading) return false;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: false });
  return true;
}

/** Moves focus to the new page's heading after each in-app navigation (see the file's comment). */
export function useFocusOnNavigate(): void {
  const [location] = useLocation();
  useEffect(() => {
    if (firstLoad) {
      firstLoad = false;
      return;
    }
    const started = performance.now();
    let frame = 0;
    const tick = () => {
      if (focusHeading()) return;
      if (performance.now() - started > HEADING_WAIT_MS) {
        document.getElementById("main")?.focus({ preventScroll: true });
        return;
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [location]);
}
