/**
 * The assignment editor's slots (issue 37 §3): each chosen problem fills a
 * slot (by default its own, in order); problems put in the same slot form a
 * pool, of which each student is given one. The server checks that a pool's
 * problems are worth the same points and names the field otherwise.
 */
import { FieldRow, Select } from "../../kit/index.ts";
import { useT } from "../../i18n/index.tsx";
import { pools } from "../../i18n/catalog/pools/index.ts";

/** The slot of each chosen problem: the one set, else its place in the list. */
export function slotsFor(ids: string[], chosen: Record<string, number>): Record<string, number> {
  return Object.fromEntries(ids.map((id, i) => [id, chosen[id] ?? i]));
}

export function SlotFields(props: { ids: string[]; slots: Record<string, number>; titleOf: (id: string) => string; onChange: (id: string, slot: number) => void }) {
  const t = useT(pools);
  if (props.ids.length < 2) return null;
  const slots = slotsFor(props.ids, props.slots);
  return (
    <fieldset className="kit-radio-group">
      <legend className="kit-label">{t("slot.legend")}</legend>
      <p className="muted">{t("slot.help")}</p>
      <FieldRow columns={3}>
        {props.ids.map((id) => (
          <Select key={id} label={t("slot.label", { title: props.titleOf(id) })} value={String(slots[id])} onChange={(e) => props.onChange(id, Number(e.target.value))}>
            {props.ids.map((_, n) => (
              <option key={n} value={n}>
                {t("slot.option", { n: n + 1 })}
              </option>
            ))}
          </Select>
        ))}
      </FieldRow>
    </fieldset>
  );
}
