/**
 * The problem form's test groups (subtasks): off by default (the spec's flat
 * list of hidden tests, pass-fail). On, the author names groups with their
 * points, how each is scored (all or nothing, the sum of its tests, or the
 * minimum) and which earlier all-or-nothing groups it requires; each hidden
 * test is then put in a group. The problem's score is the groups' sum. The
 * server checks the rules (src/problems/scoring-spec.ts) and names the field.
 */
import { Checkbox, NumberField, Select, TextField } from "../kit/index.ts";
import { useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";
export interface GroupFormValues {
  name: string;
  points: number;
  aggregation: "pass-fail" | "sum" | "min";
  /** Earlier groups (or "sample") this one requires, comma-separated. */
  requires: string;
}

/** Each way of scoring a group, and its name's message. */
export const AGGREGATION_KEYS = {
  "pass-fail": "groups.passFail",
  sum: "groups.sum",
  min: "groups.min",
} as const satisfies Record<GroupFormValues["aggregation"], string>;

interface Props {
  on: boolean;
  groups: GroupFormValues[];
  onToggle: (on: boolean) => void;
  onChange: (groups: GroupFormValues[]) => void;
}

export function GroupsEditor({ on, groups, onToggle, onChange }: Props) {
  const t = useT(problems);
  const set = (i: number, patch: Partial<GroupFormValues>) => onChange(groups.map((g, j) => (j === i ? { ...g, ...patch } : g)));
  const total = groups.reduce((n, g) => n + (Number.isFinite(g.points) ? g.points : 0), 0);
  return (
    <fieldset className="validator-options" data-testid="groups-editor">
      <legend>{t("groups.legend")}</legend>
      <Checkbox label={t("groups.toggle")} checked={on} onChange={(e) => onToggle(e.target.checked)} />
      {on && (
        <>
          {groups.map((g, i) => (
            <div className="field-row" key={i} role="group" aria-label={t("groups.group", { n: i + 1 })}>
              <TextField id={`pf-g-${i}-name`} label={t("groups.name", { n: i + 1 })} value={g.name} onChange={(e) => set(i, { name: e.target.value })} />
              <NumberField id={`pf-g-${i}-points`} label={t("groups.points")} min={0} step="any" value={g.points} onChange={(e) => set(i, { points: Number(e.target.value) })} />
              <Select id={`pf-g-${i}-agg`} label={t("groups.scoredAs")} value={g.aggregation} onChange={(e) => set(i, { aggregation: e.target.value as GroupFormValues["aggregation"] })}>
                  {Object.entries(AGGREGATION_KEYS).map(([value, key]) => (
                    <option key={value} value={value}>
                      {t(key)}
                    </option>
                  ))}
                </Select>
              <TextField id={`pf-g-${i}-req`} label={t("groups.requires")} value={g.requires} placeholder={t("groups.requiresPlaceholder")} onChange={(e) => set(i, { requires: e.target.value })} />
              <button type="button" className="btn btn-danger-ghost btn-sm" aria-label={t("groups.removeLabel", { n: i + 1 })} onClick={() => onChange(groups.filter((_, j) => j !== i))}>
                {t("groups.remove")}
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange([...groups, { name: `group${groups.length + 1}`, points: 0, aggregation: "pass-fail", requires: "" }])}>
            {t("groups.add")}
          </button>
          <p className="muted">{t("groups.total", { total })}</p>
        </>
      )}
    </fieldset>
  );
}

/** The form's groups as the API's `scoring` (the problem's maximum is their sum). */
export function scoringFromGroups(groups: GroupFormValues[]) {
  return {
    maxScore: groups.reduce((n, g) => n + g.points, 0),
    aggregation: "sum" as const,
    requirePass: [],
    groups: groups.map((g) => ({
      name: g.name.trim(),
      maxScore: g.points,
      aggregation: g.aggregation,
      requirePass: g.requires.split(",").map((r) => r.trim()).filter(Boolean),
    })),
  };
}

/** A stored problem's groups in the form's terms. */
export function groupsFromScoring(scoring: { groups: { name: string; maxScore: number; aggregation: GroupFormValues["aggregation"]; requirePass: string[] }[] } | null): GroupFormValues[] {
  return (scoring?.groups ?? []).map((g) => ({ name: g.name, points: g.maxScore, aggregation: g.aggregation, requires: g.requirePass.join(", ") }));
}
