/**
 * Switching the interface language fast (issue 34: a switch renders in under
 * 100 ms; decision 069).
 *
 * - `prefetchLocale(tag)` fetches, without showing anything, what a switch
 *   to `tag` needs: the messages of every namespace read so far (the
 *   screen's and those of screens visited before) and the parts registered with
 *   `addLocalePart` (the dates' dayjs locale), all requests at once. The
 *   language menu calls it for every language on offer when a person points
 *   at it or moves the focus into it (./useLocaleChoice.ts), so the chunks
 *   are in flight or in hand by the time a language is chosen; a person who
 *   never opens the menu fetches no other language.
 * - `switchLocale(tag, locales)` fetches what is missing (in parallel, no
 *   waterfall), then puts every part and every namespace's messages in force
 *   in one Lingui call: one change, one render of the page (a namespace
 *   defined but never read yet reads English there until it is first read,
 *   which loads it). When everything
 *   is already fetched it does so synchronously, inside the caller's event
 *   (React renders the page before the next frame). The last switch asked
 *   for wins when an earlier one's chunks arrive later.
 */
import { i18n } from "@lingui/core";
import { takeMessages, namespacesInUse } from "./namespace.ts";

/** Something besides the messages a language needs (the dates' dayjs locale): `fetch` gets it ready (once per tag, never rejects) and resolves to what puts it in force. */
export interface LocalePart {
  fetch(tag: string): Promise<() => void>;
}

const parts: LocalePart[] = [];
/** Per tag, the parts' functions that put them in force, once all are fetched. */
const partsReady = new Map<string, Array<() => void>>();
const partsFetching = new Map<string, Promise<void>>();

/** Registers a part every switch prepares and applies (./locale.ts registers the dates' dayjs locale). */
export function addLocalePart(part: LocalePart): void {
  parts.push(part);
  partsReady.clear();
  partsFetching.clear();
}

function fetchParts(tag: string): Promise<void> {
  if (partsReady.has(tag)) return Promise.resolve();
  let p = partsFetching.get(tag);
  if (!p) {
    const started = parts.length;
    p = Promise.all(parts.map((part) => part.fetch(tag))).then((applies) => {
      if (parts.length === started) partsReady.set(tag, applies);
      partsFetching.delete(tag);
    });
    partsFetching.set(tag, p);
  }
  return p;
}

/** True when a switch to `tag` would need no request: every used namespace's messages and every part fetched. */
export function isLocaleReady(tag: string): boolean {
  return partsReady.has(tag) && namespacesInUse().every((ns) => ns.isFetched(tag));
}

/** Fetches (without showing) what a switch to `tag` needs, every request at once. Never rejects. */
export function prefetchLocale(tag: string): Promise<void> {
  return Promise.all([...namespacesInUse().map((ns) => ns.prefetch(tag)), fetchParts(tag)]).then(() => undefined);
}

let latest = 0;

function activate(tag: string, locales: string[], also?: () => void): void {
  for (const apply of partsReady.get(tag) ?? []) apply();
  i18n.loadAndActivate({ locale: tag, locales, messages: takeMessages(tag) });
  also?.();
}

/**
 * Switches Lingui to `tag` (with `locales` for Intl) once its messages and
 * parts are fetched, in one change, then calls `also` in the same moment
 * (the page's `<html lang dir>`). Resolves to false when a later switch was
 * asked for before this one was ready (it is then dropped). Never rejects.
 */
export function switchLocale(tag: string, locales: string[], also?: () => void): Promise<boolean> {
  const mine = ++latest;
  if (isLocaleReady(tag)) {
    activate(tag, locales, also);
    return Promise.resolve(true);
  }
  return prefetchLocale(tag).then(() => {
    if (mine !== latest) return false;
    activate(tag, locales, also);
    return true;
  });
}
