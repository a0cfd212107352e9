/**
 * Choosing problems from many (1,000 and more): a search field filters a
 * virtualized list box (React Aria Components: only the visible rows are in
 * the DOM; arrow keys, Space and Shift+arrows select; the list keeps its
 * selection across searches). The chosen problems are listed above it, each
 * with a button to remove it (titles are the authors' words: `translate="no"`, cut with an
 * ellipsis in a narrow row). `value` and `onChange` carry problem ids in the
 * order they were chosen.
 */
import { useId, useMemo, useState } from "react";
import { ListBox, ListBoxItem, ListLayout, Virtualizer, type Selection } from "react-aria-components";
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

export interface PickableProblem {
  id: string;
  title: string;
  /** Shown after the title (difficulty, course…). */
  detail?: string;
}

export interface ProblemMultiSelectProps {
  label: string;
  description?: string;
  problems: readonly PickableProblem[];
  value: readonly string[];
  onChange: (ids: string[]) => void;
  /** Visible rows (each 40 px). */
  rows?: number;
}

const ROW_PX = 40;

export function ProblemMultiSelect({ label, description, problems, value, onChange, rows = 8 }: ProblemMultiSelectProps) {
  const t = useT(common);
  const id = useId();
  const [query, setQuery] = useState("");
  const byId = useMemo(() => new Map(problems.map((p) => [p.id, p])), [problems]);
  const shown = useMemo(() => {
    const q = query.trim().toLocaleLowerCase();
    return q ? problems.filter((p) => p.title.toLocaleLowerCase().includes(q) || p.id.toLocaleLowerCase().includes(q)) : problems;
  }, [problems, query]);
  const selected = useMemo(() => new Set(value), [value]);

  const change = (keys: Selection) => {
    // Keys of rows hidden by the search stay chosen: merge what is visible with what is not.
    const visible = new Set(shown.map((p) => p.id));
    const now = keys === "all" ? new Set(shown.map((p) => p.id)) : new Set([...keys].map(String));
    const kept = value.filter((v) => !visible.has(v) || now.has(v));
    const added = [...now].filter((k) => !value.includes(k));
    onChange([...kept, ...added]);
  };

  return (
    <div className="kit-field kit-picker">
      <span className="kit-label" id={`${id}-label`}>
        {label}
      </span>
      {description && (
        <p className="kit-description" id={`${id}-desc`}>
          {description}
        </p>
      )}
      {value.length > 0 && (
        <ul className="kit-chips" aria-label={t("kit.chosen", { count: value.length })}>
          {value.map((v) => (
            <li key={v} className="kit-chip">
              <span>{byId.get(v)?.title ?? v}</span>
              <button type="button" className="kit-chip-remove" aria-label={t("kit.remove", { title: byId.get(v)?.title ?? v })} onClick={() => onChange(value.filter((x) => x !== v))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="kit-sub-label" htmlFor={`${id}-search`}>
        {t("kit.searchProblems")}
      </label>
      <input id={`${id}-search`} type="search" className="kit-input" value={query} onChange={(e) => setQuery(e.target.value)} aria-controls={`${id}-list`} />
      <p className="kit-description" aria-live="polite">
        {t("kit.shownChosen", { shown: shown.length, total: problems.length, chosen: value.length })}
      </p>
      <Virtualizer layout={ListLayout} layoutOptions={{ rowHeight: ROW_PX }}>
        <ListBox
          id={`${id}-list`}
          aria-labelledby={`${id}-label`}
          aria-describedby={description ? `${id}-desc` : undefined}
          className="kit-listbox"
          style={{ height: Math.min(rows, Math.max(shown.length, 1)) * ROW_PX + 2 }}
          selectionMode="multiple"
          selectedKeys={selected}
          onSelectionChange={change}
          items={shown}
          renderEmptyState={() => <p className="kit-empty">{t("kit.noMatch", { query })}</p>}
        >
          {(p) => (
            <ListBoxItem id={p.id} textValue={p.title} className="kit-option">
              {({ isSelected }) => (
                <>
                  <span className="kit-option-box" aria-hidden="true">
                    {isSelected ? "✓" : ""}
                  </span>
                  <span className="kit-option-title" translate="no">
                    {p.title}
                  </span>
                  {p.detail && <span className="kit-option-detail">{p.detail}</span>}
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Virtualizer>
    </div>
  );
}
