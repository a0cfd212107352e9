/**
 * The assignment and contest editors' exam settings: a timed window (assignments only: a contest's clock is its
 * window), address ranges, Safe Exam Browser config keys, a proctor's password, one session and lock-down
 * (decisions 075, 081). `examBody` turns them into the request's fields (blank SEB keys or password: unchanged
 * when editing, none when creating).
 */
import { Checkbox, NumberField, TextArea, TextField } from "../../kit/index.ts";
import type { RouterOutputs } from "../../lib/trpc.ts";
import { useT } from "../../i18n/index.tsx";
import { exam } from "../../i18n/catalog/exam/index.ts";

export interface ExamValues {
  timeLimitMinutes: string;
  accessCidrs: string;
  sebConfigKeys: string;
  clearSeb: boolean;
  proctorPassword: string;
  clearPassword: boolean;
  oneSession: boolean;
  lockDown: boolean;
}

type ExamShape = RouterOutputs["assignments"]["byId"]["exam"];
/** What the editor shows of the saved settings (an assignment's or a contest's). */
type Existing = Pick<ExamShape, "passwordRequired" | "sebConfigKeyCount">;
/** Whose settings these are: an assignment's (with a timed window) or a contest's. */
export type ExamKind = "assignment" | "contest";

export const blankExam = (): ExamValues => ({ timeLimitMinutes: "", accessCidrs: "", sebConfigKeys: "", clearSeb: false, proctorPassword: "", clearPassword: false, oneSession: false, lockDown: false });

export function examValuesOf(x: Pick<ExamShape, "accessCidrs" | "oneSession" | "lockDown"> & { timeLimitMinutes?: number | null }): ExamValues {
  return { ...blankExam(), timeLimitMinutes: x.timeLimitMinutes == null ? "" : String(x.timeLimitMinutes), accessCidrs: (x.accessCidrs ?? []).join("\n"), oneSession: x.oneSession, lockDown: x.lockDown };
}

const lines = (s: string) => s.split(/[\s,]+/).map((l) => l.trim()).filter(Boolean);

/** The exam fields of a create or update request. */
export function examBody(v: ExamValues, editing: boolean, kind: ExamKind = "assignment") {
  const keys = lines(v.sebConfigKeys);
  return {
    ...(kind === "assignment" ? { timeLimitMinutes: v.timeLimitMinutes.trim() ? Number(v.timeLimitMinutes) : null } : {}),
    accessCidrs: lines(v.accessCidrs),
    ...(v.clearSeb ? { sebConfigKeys: null } : keys.length ? { sebConfigKeys: keys } : editing ? {} : { sebConfigKeys: null }),
    ...(v.clearPassword ? { proctorPassword: null } : v.proctorPassword ? { proctorPassword: v.proctorPassword } : editing ? {} : { proctorPassword: null }),
    oneSession: v.oneSession,
    lockDown: v.lockDown,
  };
}

export function ExamFields({ value: v, onChange, existing, kind = "assignment" }: { value: ExamValues; onChange: (v: ExamValues) => void; existing?: Existing; kind?: ExamKind }) {
  const contest = kind === "contest";
  const t = useT(exam);
  const set = <K extends keyof ExamValues>(k: K, x: ExamValues[K]) => onChange({ ...v, [k]: x });
  return (
    <fieldset className="kit-radio-group exam-fields">
      <legend className="kit-label">{t("fields.legend")}</legend>
      {!contest && (
        <NumberField label={t("fields.timeLimit")} description={t("fields.timeLimitHint")} min={1} max={1440} unit={t("extra.minutesUnit")} value={v.timeLimitMinutes} onChange={(e) => set("timeLimitMinutes", e.target.value)} />
      )}
      <TextArea label={t("fields.cidrs")} description={t("fields.cidrsHint")} rows={2} mono dir="ltr" value={v.accessCidrs} onChange={(e) => set("accessCidrs", e.target.value)} />
      <TextArea
        label={t("fields.seb")}
        description={existing?.sebConfigKeyCount ? t("fields.sebKept", { count: existing.sebConfigKeyCount }) : t("fields.sebHint")}
        rows={2}
        mono
        dir="ltr"
        value={v.sebConfigKeys}
        onChange={(e) => set("sebConfigKeys", e.target.value)}
      />
      {existing?.sebConfigKeyCount ? <Checkbox label={t("fields.clearSeb")} checked={v.clearSeb} onChange={(e) => set("clearSeb", e.target.checked)} /> : null}
      <TextField
        label={t("fields.password")}
        description={existing?.passwordRequired ? t("fields.passwordKept") : t(contest ? "fields.passwordHintContest" : "fields.passwordHint")}
        type="password"
        autoComplete="new-password"
        value={v.proctorPassword}
        onChange={(e) => set("proctorPassword", e.target.value)}
      />
      {existing?.passwordRequired && <Checkbox label={t("fields.clearPassword")} checked={v.clearPassword} onChange={(e) => set("clearPassword", e.target.checked)} />}
      <Checkbox label={t(contest ? "fields.oneSessionContest" : "fields.oneSession")} checked={v.oneSession} onChange={(e) => set("oneSession", e.target.checked)} />
      <Checkbox label={t(contest ? "fields.lockDownContest" : "fields.lockDown")} checked={v.lockDown} onChange={(e) => set("lockDown", e.target.checked)} />
      {contest && <p className="muted">{t("fields.entryHint")}</p>}
    </fieldset>
  );
}
