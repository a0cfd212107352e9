/**
 * Creating a contest: title, short name, start (the viewer's local time), length,
 * freeze, scoring, penalty, registration (open, with a code) and its problems
 * with labels and colours, chosen from the problems the viewer may use, and
 * its exam rules (address ranges, Safe Exam Browser, a proctor's password, one
 * session, lock-down: ../courses/exam/ExamFields.tsx).
 */
import { Page } from "../components/shell/Page.tsx";
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { ColorField, DateTimeField, FieldRow, NumberField, Select, TextField } from "../kit/index.ts";
import { ProblemMultiSelect } from "../kit/ProblemMultiSelect.tsx";
import { fromLocalInput } from "../lib/dates.ts";
import { useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";
import { useNotice } from "../lib/notice.ts";
import { useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { blankExam, examBody, ExamFields, type ExamValues } from "../courses/exam/ExamFields.tsx";

interface PickedProblem {
  problemId: string;
  label: string;
  color: string;
}

export default function ContestEditorPage() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [, navigate] = useLocation();
  const notice = useNotice();
  const t = useT(contests);
  const problems = useQuery(trpc.problems.list.queryOptions());
  const [form, setForm] = useState({ title: "", shortName: "", startsAt: "", durationMinutes: 300, freezeMinutes: 60, scoring: "icpc", penaltyMinutes: 20, registration: "open", registrationCode: "" });
  const [picked, setPicked] = useState<PickedProblem[]>([]);
  const [ex, setEx] = useState<ExamValues>(blankExam);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: typeof f[k] === "number" ? Number(e.target.value) : e.target.value }));

  const titleOf = (id: string) => problems.data?.find((p) => p._id === id)?.title ?? id;
  // Kept problems keep their label and colour; a new one gets the first letter not taken.
  const choose = (ids: string[]) =>
    setPicked((list) => {
      const kept = list.filter((p) => ids.includes(p.problemId));
      for (const id of ids) {
        if (kept.some((p) => p.problemId === id)) continue;
        const taken = new Set(kept.map((p) => p.label));
        let code = 65;
        while (taken.has(String.fromCharCode(code))) code++;
        kept.push({ problemId: id, label: String.fromCharCode(code), color: "" });
      }
      return kept;
    });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const made = await notice.run(
      () =>
        client.contests.create.mutate({
          title: form.title,
          shortName: form.shortName,
          startsAt: fromLocalInput(form.startsAt) ?? "",
          durationMinutes: form.durationMinutes,
          freezeMinutes: form.freezeMinutes || null,
          scoring: form.scoring as "icpc" | "ioi",
          penaltyMinutes: form.penaltyMinutes,
          registration: form.registration as "open" | "code",
          // Left empty, the server makes a random code (at least 8 characters either way).
          ...(form.registration === "code" && form.registrationCode.trim() ? { registrationCode: form.registrationCode } : {}),
          problems: picked.map((p) => ({ problemId: p.problemId, label: p.label, ...(p.color ? { color: p.color } : {}) })),
          ...examBody(ex, false, "contest"),
        }),
      { error: t("editor.error") },
    );
    if (made) navigate(`/contests/${made.shortName}`);
  };

  return (
    <Page title={t("editor.title")}>
        <h1 className="page-title">{t("editor.title")}</h1>
        <form className="card form" onSubmit={submit}>
          <TextField label={t("editor.contestTitle")} required value={form.title} onChange={set("title")} />
          <TextField label={t("editor.shortName")} description={t("editor.shortNameHelp")} required value={form.shortName} onChange={set("shortName")} />
          <DateTimeField label={t("editor.startsAt")} description={t("editor.startsAtHelp")} required step={1} value={form.startsAt} onChange={set("startsAt")} />
          <FieldRow>
            <NumberField label={t("editor.length")} unit={t("editor.minutes")} min={1} value={form.durationMinutes} onChange={set("durationMinutes")} />
            <NumberField label={t("editor.freeze")} description={t("editor.freezeHelp")} unit={t("editor.minutes")} min={0} value={form.freezeMinutes} onChange={set("freezeMinutes")} />
          </FieldRow>
          <Select label={t("editor.scoring")} value={form.scoring} onChange={set("scoring")}>
            <option value="icpc">{t("editor.scoringIcpc")}</option>
            <option value="ioi">{t("editor.scoringIoi")}</option>
          </Select>
          {form.scoring === "icpc" && <NumberField label={t("editor.penalty")} unit={t("editor.minutes")} min={0} value={form.penaltyMinutes} onChange={set("penaltyMinutes")} />}
          <Select label={t("editor.registration")} value={form.registration} onChange={set("registration")}>
            <option value="open">{t("editor.registrationOpen")}</option>
            <option value="code">{t("editor.registrationCode")}</option>
          </Select>
          {form.registration === "code" && (
            <TextField label={t("editor.code")} description={t("editor.codeHelp")} minLength={8} maxLength={64} value={form.registrationCode} onChange={set("registrationCode")} />
          )}
          <ProblemMultiSelect
            label={t("editor.problems")}
            description={t("editor.problemsHelp")}
            problems={(problems.data ?? []).map((p) => ({ id: p._id, title: p.title, detail: t("editor.difficulty", { level: p.difficulty }) }))}
            value={picked.map((p) => p.problemId)}
            onChange={choose}
          />
          {picked.length > 0 && (
            <fieldset className="contest-picked">
              <legend className="kit-label">{t("editor.labels")}</legend>
              {picked.map((p, at) => {
                const title = titleOf(p.problemId);
                return (
                  <FieldRow key={p.problemId}>
                    <TextField label={t("editor.labelOf", { title })} maxLength={8} value={p.label} onChange={(e) => setPicked((l) => l.map((x, i) => (i === at ? { ...x, label: e.target.value } : x)))} />
                    <ColorField label={t("editor.colourOf", { title })} value={p.color || "#888888"} onChange={(e) => setPicked((l) => l.map((x, i) => (i === at ? { ...x, color: e.target.value } : x)))} />
                  </FieldRow>
                );
              })}
            </fieldset>
          )}
          <ExamFields value={ex} onChange={setEx} kind="contest" />
          <FormMessage notice={notice.notice} />
          <button type="submit" className="btn btn-primary">
            {t("editor.create")}
          </button>
        </form>
      </Page>
  );
}
