/**
 * Choosing a few of a few dozen (a problem's topic tags): a filter field
 * narrows a list of native checkboxes, the chosen ones are listed above it as
 * chips with a remove button each, and a polite live line says how many are
 * shown and chosen. Native controls only (no widget library: the problem form
 * is in the problems page's first paint), so Tab, Space and the platform's
 * screen-reader behaviour come for free. With `max`, the unchosen boxes turn
 * disabled once `max` are chosen (the live line says why). Texts come from
 * the caller's catalogue; `value` holds the chosen items' values in the order
 * they were chosen, hidden ones (filtered out) included.
 */
import { useId, useMemo, useState, type ReactNode } from "react";
import { Checkbox, TextField } from "./Field.tsx";
import "./FilterCheckboxList.css";

export interface FilterCheckboxItem {
  value: string;
  label: string;
  /** More words the filter matches (a tag's slug and synonyms), never shown. */
  keywords?: readonly string[];
}

export interface FilterCheckboxListProps {
  /** The group's name (its legend). */
  label: ReactNode;
  description?: ReactNode;
  items: readonly FilterCheckboxItem[];
  value: readonly string[];
  onChange: (values: string[]) => void;
  max?: number;
  filterLabel: string;
  /** The chips' list name, e.g. "Chosen tags". */
  chosenLabel: string;
  /** A chip's remove button's name for the item, e.g. "Remove Graphs". */
  removeLabel: (label: string) => string;
  /** The live line: how many are shown of all, how many chosen, and whether `max` is reached. */
  status: (counts: { shown: number; total: number; chosen: number; full: boolean }) => string;
  /** Shown when the filter matches nothing. */
  noMatch: (query: string) => string;
  /** Text of a label that is user content (stored names): `translate="no"` keeps page translators off it. */
  userContent?: boolean;
}

export function FilterCheckboxList(props: FilterCheckboxListProps) {
  const { label, description, items, value, onChange, max, filterLabel, chosenLabel, removeLabel, status, noMatch, userContent } = props;
  const id = useId();
  const [query, setQuery] = useState("");
  const byValue = useMemo(() => new Map(items.map((i) => [i.value, i])), [items]);
  const shown = useMemo(() => {
    const q = query.trim().toLocaleLowerCase();
    if (!q) return items;
    return items.filter((i) => i.label.toLocaleLowerCase().includes(q) || (i.keywords ?? []).some((k) => k.toLocaleLowerCase().includes(q)));
  }, [items, query]);
  const chosen = new Set(value);
  const full = max !== undefined && value.length >= max;
  const toggle = (v: string, on: boolean) => onChange(on ? (chosen.has(v) ? [...value] : [...value, v]) : value.filter((x) => x !== v));
  const translate = userContent ? "no" : undefined;

  return (
    <fieldset className="kit-radio-group kit-filter-list" aria-describedby={description ? `${id}-desc` : undefined}>
      <legend className="kit-label">{label}</legend>
      {description && (
        <p className="kit-description" id={`${id}-desc`}>
          {description}
        </p>
      )}
      {value.length > 0 && (
        <ul className="kit-chips" aria-label={chosenLabel}>
          {value.map((v) => {
            const text = byValue.get(v)?.label ?? v;
            return (
              <li key={v} className="kit-chip">
                <span translate={translate}>{text}</span>
                <button type="button" className="kit-chip-remove" aria-label={removeLabel(text)} onClick={() => toggle(v, false)}>
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <TextField id={`${id}-filter`} type="search" label={filterLabel} value={query} onChange={(e) => setQuery(e.target.value)} aria-controls={`${id}-list`} autoComplete="off" />
      <p className="kit-description" aria-live="polite">
        {status({ shown: shown.length, total: items.length, chosen: value.length, full })}
      </p>
      <div id={`${id}-list`} className="kit-check-list">
        {shown.length === 0 ? (
          <p className="kit-empty">{noMatch(query)}</p>
        ) : (
          shown.map((i) => (
            <Checkbox
              key={i.value}
              id={`${id}-opt-${i.value}`}
              label={<span translate={translate}>{i.label}</span>}
              checked={chosen.has(i.value)}
              disabled={full && !chosen.has(i.value)}
              onChange={(e) => toggle(i.value, e.target.checked)}
            />
          ))
        )}
      </div>
    </fieldset>
  );
}
