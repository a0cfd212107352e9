/**
 * The language menu's state and action (issue 34 §3): the active locale, the
 * locales on offer (with their own names), and `choose(tag)`, which switches
 * the interface (after its messages load), remembers the choice in this
 * browser and, when signed in, on the account. `switching` is true while a
 * locale's messages load (never when they were fetched ahead: the switch is
 * then immediate). `prefetch()` fetches every other language's messages for
 * the screen ahead of a choice (the menu calls it when pointed at or
 * focused; decision 069).
 */
import { useCallback, useState } from "react";
import { useLingui } from "@lingui/react";
import { LOCALE_INFO, LOCALE_TAGS, type AnyLocaleTag, type LocaleTag } from "../../../src/i18n/locales.ts";
import { useAuth } from "../lib/auth.tsx";
import { useTRPCClient } from "../lib/trpc.ts";
import { activateLocale, activeLocale, prefetchOtherLocales, storeChoice } from "./locale.ts";
import { isLocaleReady } from "./switch.ts";

export interface LocaleOption {
  tag: LocaleTag;
  /** The language's name for itself ("Deutsch"), to be shown with `lang={tag}`. */
  autonym: string;
  dir: "ltr" | "rtl";
}

export const LOCALE_OPTIONS: readonly LocaleOption[] = LOCALE_TAGS.map((tag) => ({ tag, autonym: LOCALE_INFO[tag].autonym, dir: LOCALE_INFO[tag].dir }));

export function useLocaleChoice(): { locale: AnyLocaleTag; options: readonly LocaleOption[]; switching: boolean; choose: (tag: LocaleTag) => Promise<void>; prefetch: () => void } {
  useLingui(); // re-render on a switch
  const { status } = useAuth();
  const client = useTRPCClient();
  const [switching, setSwitching] = useState(false);
  const choose = useCallback(
    async (tag: LocaleTag) => {
      storeChoice(tag);
      // Fetched ahead: the switch happens now, in this event, and renders once; otherwise "switching" is announced while the chunks load.
      const wait = !isLocaleReady(tag);
      if (wait) setSwitching(true);
      try {
        await activateLocale(tag);
      } finally {
        if (wait) setSwitching(false);
      }
      if (status === "authenticated") await client.auth.setLocale.mutate({ locale: tag }).catch((err) => console.warn("Could not store the language on the account", err));
    },
    [status, client],
  );
  return { locale: activeLocale(), options: LOCALE_OPTIONS, switching, choose, prefetch: prefetchOtherLocales };
}
