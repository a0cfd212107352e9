/**
 * The problem form's test groups (subtasks): off by default (the spec's flat
 * list of hidden tests, pass-fail). On, the author names groups with their
 * points, how each is scored (all or nothing, the sum of its tests, or the
 * minimum) and which earlier all-or-nothing groups it requires; each hidden
 * test is then put in a group. The problem's score is the groups' sum. The
 * server checks the rules (src/problems/scoring-spec.ts) and names the field.
 */
import { Checkbox, NumberField, Select, TextField } from "../kit/index.ts";
export interface GroupFormValues {
  name: string;
  points: number;
  aggregation: "pass-fail" | "sum" | "min";
  /** Earlier groups (or "sample") this one requires, comma-separated. */
  requires: string;
}

export const AGGREGATION_LABELS = {
  "pass-fail": "All or nothing",
  sum: "Sum of its tests",
  min: "Minimum of its tests",
} as const;

interface Props {
  on: boolean;
  groups: GroupFormValues[];
  onToggle: (on: boolean) => void;
  onChange: (groups: GroupFormValues[]) => void;
}

export function GroupsEditor({ on, groups, onToggle, onChange }: Props) {
  const set = (i: number, patch: Partial<GroupFormValues>) => onChange(groups.map((g, j) => (j === i ? { ...g, ...patch } : g)));
  const total = groups.reduce((n, g) => n + (Number.isFinite(g.points) ? g.points : 0), 0);
  return (
    <fieldset className="validator-options" data-testid="groups-editor">
      <legend>Scoring</legend>
      <Checkbox label="Score by test groups (subtasks with points); off: every test must pass" checked={on} onChange={(e) => onToggle(e.target.checked)} />
      {on && (
        <>
          {groups.map((g, i) => (
            <div className="field-row" key={i} role="group" aria-label={`Group ${i + 1}`}>
              <TextField id={`pf-g-${i}-name`} label={<>Group {i + 1} name</>} value={g.name} onChange={(e) => set(i, { name: e.target.value })} />
              <NumberField id={`pf-g-${i}-points`} label="Points" min={0} step="any" value={g.points} onChange={(e) => set(i, { points: Number(e.target.value) })} />
              <Select id={`pf-g-${i}-agg`} label="Scored as" value={g.aggregation} onChange={(e) => set(i, { aggregation: e.target.value as GroupFormValues["aggregation"] })}>
                  {Object.entries(AGGREGATION_LABELS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
              <TextField id={`pf-g-${i}-req`} label="Requires (earlier groups, or sample)" value={g.requires} placeholder="e.g. small" onChange={(e) => set(i, { requires: e.target.value })} />
              <button type="button" className="btn btn-danger-ghost btn-sm" aria-label={`Remove group ${i + 1}`} onClick={() => onChange(groups.filter((_, j) => j !== i))}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange([...groups, { name: `group${groups.length + 1}`, points: 0, aggregation: "pass-fail", requires: "" }])}>
            + Add Group
          </button>
          <p className="muted">The problem is worth {total} points: the sum of its groups. Put each hidden test in a group below.</p>
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
