/** The difficulty tabs with their counts (WAI-ARIA tabs: arrow keys, Home and End move between them). */
import { DIFFICULTIES, type Difficulty } from "../lib/types.ts";

interface Props {
  tab: Difficulty;
  counts: Record<Difficulty, number>;
  onSelect: (d: Difficulty) => void;
  /** The id of the panel the tabs control. */
  panelId: string;
}

export function DifficultyTabs({ tab, counts, onSelect, panelId }: Props) {
  return (
    <div
      className="tabs"
      role="tablist"
      aria-label="Difficulty"
      onKeyDown={(e) => {
        const i = DIFFICULTIES.indexOf(tab);
        const next =
          e.key === "ArrowRight" ? DIFFICULTIES[(i + 1) % DIFFICULTIES.length]
          : e.key === "ArrowLeft" ? DIFFICULTIES[(i + DIFFICULTIES.length - 1) % DIFFICULTIES.length]
          : e.key === "Home" ? DIFFICULTIES[0]
          : e.key === "End" ? DIFFICULTIES[DIFFICULTIES.length - 1]
          : undefined;
        if (!next) return;
        e.preventDefault();
        onSelect(next);
        document.getElementById(`tab-${next}`)?.focus();
      }}
    >
      {DIFFICULTIES.map((d) => (
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
          <span className="tab-label">{d}</span>
          <span className="tab-count">{counts[d]}</span>
          <span className="sr-only"> problems</span>
        </button>
      ))}
    </div>
  );
}
