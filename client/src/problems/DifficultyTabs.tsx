/**
 * The difficulty tabs with their counts: a filter of the problem bank ("all" first, then each
 * difficulty; counts under the other filters). WAI-ARIA tabs: arrow keys, mirrored right to left,
 * Home and End move between them.
 */
import { DIFFICULTIES, type Difficulty } from "../lib/types.ts";
import { activeLocale, intlLocales } from "../i18n/locale.ts";
import { formatCount } from "./bank-format.ts";
import { T, useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";

/** Each tab's text: "<0>easy</0><1>{n}</1><2> problems</2>" (the label, the count in the locale's digits, the words for screen readers). */
const TAB_KEYS = { all: "tabs.all", easy: "tabs.easy", medium: "tabs.medium", hard: "tabs.hard" } as const satisfies Record<DifficultyTab, string>;

/** A tab: every difficulty, or one. */
export type DifficultyTab = "all" | Difficulty;
const TABS: readonly DifficultyTab[] = ["all", ...DIFFICULTIES];

interface Props {
  tab: DifficultyTab;
  /** Problems per difficulty ("all" is their sum). */
  counts: Record<Difficulty, number>;
  onSelect: (d: DifficultyTab) => void;
  /** The id of the panel the tabs control. */
  panelId: string;
}

export function DifficultyTabs({ tab, counts, onSelect, panelId }: Props) {
  const t = useT(problems);
  const countOf = (d: DifficultyTab) => (d === "all" ? DIFFICULTIES.reduce((n, x) => n + counts[x], 0) : counts[d]);
  return (
    <div
      className="tabs bank-tabs"
      role="tablist"
      aria-label={t("tabs.label")}
      onKeyDown={(e) => {
        const i = TABS.indexOf(tab);
        // Right to left (Arabic) the tabs are mirrored, so the arrow pointing at the next tab is the left one.
        const rtl = getComputedStyle(e.currentTarget).direction === "rtl";
        const forward = rtl ? "ArrowLeft" : "ArrowRight"; // i18n-ignore: key names
        const backward = rtl ? "ArrowRight" : "ArrowLeft"; // i18n-ignore: key names
        const next =
          e.key === forward ? TABS[(i + 1) % TABS.length]
          : e.key === backward ? TABS[(i + TABS.length - 1) % TABS.length]
          : e.key === "Home" ? TABS[0] // i18n-ignore: a key name
          : e.key === "End" ? TABS[TABS.length - 1] // i18n-ignore: a key name
          : undefined;
        if (!next) return;
        e.preventDefault();
        onSelect(next);
        document.getElementById(`tab-${next}`)?.focus();
      }}
    >
      {TABS.map((d) => (
        <button
          key={d}
          type="button"
          role="tab"
          id={`tab-${d}`}
          aria-selected={tab === d}
          tabIndex={tab === d ? 0 : -1}
          aria-controls={panelId}
          className={`tab tab-${d}${tab === d ? " active" : ""}`}
          onClick={() => onSelect(d)}
        >
          <T
            ns={problems}
            k={TAB_KEYS[d]}
            values={{ count: countOf(d), n: formatCount(countOf(d), intlLocales(activeLocale())) }}
            components={{ 0: <span className="tab-label" />, 1: <span className="tab-count" />, 2: <span className="sr-only" /> }}
          />
        </button>
      ))}
    </div>
  );
}
