/**
 * Message namespaces (decision 061). Each namespace is one folder under
 * ./catalog with a catalogue per locale (`en.json` the source, ICU
 * MessageFormat, flat keys) and an `index.ts` that defines it:
 *
 *   import en from "./en.json";
 *   export const solve = defineNamespace("solve", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
 *
 * English is imported statically, so a page's English strings travel in the
 * page's own chunk (as they did when they were written in the code); every
 * other locale is a chunk of its own, fetched when that locale is active and
 * the namespace is in use. The build compiles each catalogue to Lingui's
 * compiled form (client/i18n-catalog-plugin.ts), so no message parser ships.
 * Message ids are `<namespace>.<key>`.
 */
import { i18n, type Messages } from "@lingui/core";
import { PSEUDO_LOCALE, SOURCE_LOCALE } from "../../../src/i18n/locales.ts";

type Loader = () => Promise<unknown>;

export interface Namespace<K extends string = string> {
  readonly name: string;
  /** The keys, for types only (never read at run time). */
  readonly keys?: K;
  /** True once the locale's messages of this namespace are in Lingui's catalogue. */
  isLoaded(locale: string): boolean;
  /** Loads the locale's messages (English underneath, so a missing key reads English, never an id). Never rejects: a failed load leaves English. */
  load(locale: string): Promise<void>;
}

const registry = new Map<string, Namespace>();

/** The pseudo-locale's accenting (./pseudo.ts), once the pseudo-locale has been loaded; null before (it is never in the first paint). */
let pseudoAccent: ((text: string) => string) | null = null;

/** `text` accented as the pseudo-locale writes it, when the pseudo-locale is loaded; unchanged otherwise (for words Intl makes, such as a list's "and"). */
export function accentForPseudo(text: string): string {
  return pseudoAccent ? pseudoAccent(text) : text;
}

/** Every namespace defined so far (the modules that define them have been evaluated): what a locale switch must load first. */
export function definedNamespaces(): Namespace[] {
  return [...registry.values()];
}

function prefixed(name: string, messages: Record<string, unknown>): Messages {
  const out: Messages = {};
  for (const [key, value] of Object.entries(messages)) out[`${name}.${key}`] = value as Messages[string];
  return out;
}

/**
 * Defines a namespace: loads its English messages into Lingui now, and
 * starts loading the active locale's when that is not English.
 * `loaders` maps "./de.json" (as import.meta.glob names them) to the catalogue's loader.
 */
export function defineNamespace<M extends Record<string, unknown>>(name: string, en: M, loaders: Record<string, Loader>): Namespace<keyof M & string> {
  const english = prefixed(name, en);
  i18n.load(SOURCE_LOCALE, english);
  const loaded = new Set<string>([SOURCE_LOCALE]);
  const pending = new Map<string, Promise<void>>();
  const ns: Namespace<keyof M & string> = {
    name,
    isLoaded: (locale) => loaded.has(locale),
    load(locale) {
      if (loaded.has(locale)) return Promise.resolve();
      let p = pending.get(locale);
      if (!p) {
        p = (async () => {
          try {
            let messages: Messages;
            if (locale === PSEUDO_LOCALE) {
              const { pseudoMessages, accent } = await import("./pseudo.ts");
              pseudoAccent = accent;
              messages = pseudoMessages(english);
            } else {
              const loader = loaders[`./${locale}.json`];
              messages = loader ? prefixed(name, (await loader()) as Record<string, unknown>) : {};
            }
            i18n.load(locale, { ...english, ...messages });
          } catch (err) {
            console.warn(`Could not load the ${locale} messages of "${name}"`, err);
            i18n.load(locale, english);
          }
          loaded.add(locale);
        })();
        pending.set(locale, p);
      }
      return p;
    },
  };
  registry.set(name, ns as Namespace);
  const active = i18n.locale;
  if (active && active !== SOURCE_LOCALE) void ns.load(active);
  return ns;
}
