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
 * the namespace is in use, or ahead of a switch (`prefetch`: the language
 * menu asks for it when a person opens it, decision 069). The build compiles
 * each catalogue to Lingui's compiled form (client/i18n-catalog-plugin.ts),
 * so no message parser ships. Message ids are `<namespace>.<key>`.
 *
 * Fetching and installing are apart: a fetched locale's messages wait here
 * until a switch installs every namespace's at once (`takeMessages`, one
 * Lingui change, one render: ./switch.ts); only a namespace that first
 * renders while its locale is already active installs itself (`load`).
 * A namespace counts as used once something has read it (`noteUse`: `useT`,
 * `<T>`, `translate`); a switch fetches the used ones first, the others
 * (defined by a chunk, never read yet) when they are first read.
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
  /** True once the locale's messages are fetched (in Lingui or waiting for a switch). */
  isFetched(locale: string): boolean;
  /** Fetches the locale's messages (once; later calls share the request) without touching Lingui: no render. Never rejects: a failed fetch leaves English. */
  prefetch(locale: string): Promise<void>;
  /** Fetches the locale's messages and puts them in Lingui's catalogue (English underneath, so a missing key reads English, never an id). Never rejects. */
  load(locale: string): Promise<void>;
}

interface Entry {
  ns: Namespace;
  /** Read at least once (rendered or translated) since the page loaded. */
  used: boolean;
  english: Messages;
  /** The fetched messages of a locale, English underneath; undefined until fetched. */
  fetched(locale: string): Messages | undefined;
  markLoaded(locale: string): void;
}

const registry = new Map<string, Entry>();

/** The pseudo-locale's accenting (./pseudo.ts), once the pseudo-locale has been loaded; null before (it is never in the first paint). */
let pseudoAccent: ((text: string) => string) | null = null;

/** `text` accented as the pseudo-locale writes it, when the pseudo-locale is loaded; unchanged otherwise (for words Intl makes, such as a list's "and"). */
export function accentForPseudo(text: string): string {
  return pseudoAccent ? pseudoAccent(text) : text;
}

/** Every namespace defined so far (the modules that define them have been evaluated). */
export function definedNamespaces(): Namespace[] {
  return [...registry.values()].map((e) => e.ns);
}

/**
 * What a switch fetches before it shows: the namespaces read so far (the
 * screen's, and those of screens visited before); before anything has been
 * read (the start, before the first render), every defined one, so the
 * first paint is already in the chosen language.
 */
export function namespacesInUse(): Namespace[] {
  const used = [...registry.values()].filter((e) => e.used);
  return (used.length ? used : [...registry.values()]).map((e) => e.ns);
}

/** Notes that `ns` is read (./index.tsx calls it from `useT`, `<T>` and `translate`). */
export function noteUse(ns: Namespace): void {
  const e = registry.get(ns.name);
  if (e) e.used = true;
}

/**
 * The messages of `locale` of every defined namespace, for the caller to
 * give Lingui in one call (./switch.ts): the fetched ones, marked as loaded;
 * English for the others (never an id), which load their own when first
 * read in that locale.
 */
export function takeMessages(locale: string): Messages {
  const all: Messages = {};
  for (const e of registry.values()) {
    const m = e.fetched(locale);
    Object.assign(all, m ?? e.english);
    if (m) e.markLoaded(locale);
  }
  return all;
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
  const fetched = new Map<string, Messages>([[SOURCE_LOCALE, english]]);
  const fetching = new Map<string, Promise<void>>();
  const loading = new Map<string, Promise<void>>();

  async function fetchMessages(locale: string): Promise<Messages> {
    try {
      if (locale === PSEUDO_LOCALE) {
        const { pseudoMessages, accent } = await import("./pseudo.ts");
        pseudoAccent = accent;
        return { ...english, ...pseudoMessages(english) };
      }
      const loader = loaders[`./${locale}.json`];
      return { ...english, ...(loader ? prefixed(name, (await loader()) as Record<string, unknown>) : {}) };
    } catch (err) {
      console.warn(`Could not load the ${locale} messages of "${name}"`, err);
      return english;
    }
  }

  const ns: Namespace<keyof M & string> = {
    name,
    isLoaded: (locale) => loaded.has(locale),
    isFetched: (locale) => fetched.has(locale),
    prefetch(locale) {
      if (fetched.has(locale)) return Promise.resolve();
      let p = fetching.get(locale);
      if (!p) {
        p = fetchMessages(locale).then((m) => void fetched.set(locale, m));
        fetching.set(locale, p);
      }
      return p;
    },
    load(locale) {
      if (loaded.has(locale)) return Promise.resolve();
      let p = loading.get(locale);
      if (!p) {
        p = ns.prefetch(locale).then(() => {
          if (loaded.has(locale)) return; // a switch installed it meanwhile
          i18n.load(locale, fetched.get(locale)!);
          loaded.add(locale);
        });
        loading.set(locale, p);
      }
      return p;
    },
  };
  registry.set(name, { ns: ns as Namespace, used: false, english, fetched: (locale) => fetched.get(locale), markLoaded: (locale) => void loaded.add(locale) });
  const active = i18n.locale;
  if (active && active !== SOURCE_LOCALE) void ns.load(active);
  return ns;
}
