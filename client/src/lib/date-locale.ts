/**
 * Loads the dayjs locale of the interface's language (src/i18n/locales.ts:
 * "pt-BR" → "pt-br", "zh-CN" → "zh-cn", "de" → "de") as its own small chunk
 * and makes it the one dates are shown in (./dates.ts), so dates read in the
 * same language as the rest of the page. English needs no loading. Only the
 * interface's languages are bundled (a longer list would cost every page the
 * list of chunk names).
 */
import { setDateLocale } from "./dates.ts";

// English is part of dayjs itself (and statically imported by it), so it is left out of the lazy chunks.
const LOCALES = import.meta.glob<{ default: { name: string } }>([
  "../../../node_modules/dayjs/esm/locale/{ar,de,es,fr,ja,ko,ru}.js",
  "../../../node_modules/dayjs/esm/locale/{pt-br,zh-cn}.js",
]);

/** The dayjs locale file for a BCP 47 tag, or null: the full tag first ("pt-br"), then its language ("pt"). */
function localeFileFor(tag: string): string | null {
  const lower = tag.toLowerCase();
  for (const name of [lower, lower.split("-")[0]!]) {
    const file = `../../../node_modules/dayjs/esm/locale/${name}.js`;
    if (file in LOCALES) return file;
  }
  return null;
}

/** Loads and selects the first of the browser's languages dayjs knows. Never throws: English stays on failure. */
export async function loadViewerDateLocale(tags: readonly string[] = navigator.languages?.length ? navigator.languages : [navigator.language]): Promise<void> {
  for (const tag of tags) {
    if (!tag) continue;
    const english = tag.toLowerCase().startsWith("en");
    const file = tag.toLowerCase() === "en" || tag.toLowerCase() === "en-us" ? null : localeFileFor(tag);
    if (!file || file.endsWith("/en.js")) {
      if (english) {
        setDateLocale("en"); // English is built in: the first English tag without its own file wins.
        return;
      }
      continue;
    }
    try {
      const mod = await LOCALES[file]!();
      setDateLocale(mod.default.name);
    } catch (err) {
      console.warn("Could not load the date locale for", tag, err);
    }
    return;
  }
}

const fetched = new Map<string, Promise<string>>();

/**
 * Fetches (once; later calls share it) the dayjs locale of one interface
 * language without selecting it, so a language switch can select it in the
 * same moment as the words (i18n/switch.ts). Resolves to the dayjs name to
 * pass to `setDateLocale` ("de", "pt-br"; "en" for English and tags dayjs
 * does not know). Never rejects: "en" on a failed load.
 */
export function fetchDateLocale(tag: string): Promise<string> {
  let p = fetched.get(tag);
  if (!p) {
    const file = tag.toLowerCase().startsWith("en") ? null : localeFileFor(tag);
    p = file && !file.endsWith("/en.js")
      ? LOCALES[file]!().then(
          (mod) => mod.default.name,
          (err) => {
            console.warn("Could not load the date locale for", tag, err);
            fetched.delete(tag);
            return "en";
          },
        )
      : Promise.resolve("en");
    fetched.set(tag, p);
  }
  return p;
}
