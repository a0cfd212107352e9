/**
 * Creating a contest: title, short name, start (the viewer's local time), length,
 * freeze, scoring, penalty, registration (open, with a code) and its problems
 * with labels and colours, chosen from the problems the viewer may use.
 */
import { Page } from "../components/shell/Page.tsx";
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { fromLocalInput } from "../courses/format.ts";
import { useNotice } from "../lib/notice.ts";
import { useTRPC, useTRPCClient } from "../lib/trpc.ts";

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
  const problems = useQuery(trpc.problems.list.queryOptions());
  const [form, setForm] = useState({ title: "", shortName: "", startsAt: "", durationMinutes: 300, freezeMinutes: 60, scoring: "icpc", penaltyMinutes: 20, registration: "open", registrationCode: "" });
  const [picked, setPicked] = useState<PickedProblem[]>([]);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: typeof f[k] === "number" ? Number(e.target.value) : e.target.value }));

  const toggle = (problemId: string) =>
    setPicked((list) => (list.some((p) => p.problemId === problemId) ? list.filter((p) => p.problemId !== problemId) : [...list, { problemId, label: String.fromCharCode(65 + list.length), color: "" }]));

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
        }),
      { error: "Could not create the contest" },
    );
    if (made) navigate(`/contests/${made.shortName}`);
  };

  return (
    <Page title={"New contest"}>
        <h1 className="page-title">New contest</h1>
        <form className="card form-grid" onSubmit={submit}>
          <label>
            Title <input required value={form.title} onChange={set("title")} />
          </label>
          <label>
            Short name (letters, digits, dashes) <input required value={form.shortName} onChange={set("shortName")} />
          </label>
          <label>
            Starts at (your local time) <input required type="datetime-local" step={1} value={form.startsAt} onChange={set("startsAt")} />
          </label>
          <label>
            Length, minutes <input type="number" min={1} value={form.durationMinutes} onChange={set("durationMinutes")} />
          </label>
          <label>
            Scoreboard freeze, minutes before the end (0: none) <input type="number" min={0} value={form.freezeMinutes} onChange={set("freezeMinutes")} />
          </label>
          <label>
            Scoring
            <select value={form.scoring} onChange={set("scoring")}>
              <option value="icpc">ICPC: solved, then penalty time</option>
              <option value="ioi">IOI: points per problem</option>
            </select>
          </label>
          {form.scoring === "icpc" && (
            <label>
              Penalty per rejected try, minutes <input type="number" min={0} value={form.penaltyMinutes} onChange={set("penaltyMinutes")} />
            </label>
          )}
          <label>
            Registration
            <select value={form.registration} onChange={set("registration")}>
              <option value="open">Open to every signed-in user</option>
              <option value="code">With a code</option>
            </select>
          </label>
          {form.registration === "code" && (
            <label>
              Registration code <input minLength={8} maxLength={64} placeholder="Leave empty for a random one" value={form.registrationCode} onChange={set("registrationCode")} />
            </label>
          )}
          <fieldset>
            <legend>Problems</legend>
            {problems.data?.map((p) => {
              const at = picked.findIndex((x) => x.problemId === p._id);
              return (
                <div key={p._id} className="contest-pick">
                  <label>
                    <input type="checkbox" checked={at >= 0} onChange={() => toggle(p._id)} /> {p.title}
                  </label>
                  {at >= 0 && (
                    <>
                      <input aria-label={`Label of ${p.title}`} className="input-short" value={picked[at]!.label} onChange={(e) => setPicked((l) => l.map((x, i) => (i === at ? { ...x, label: e.target.value } : x)))} />
                      <input aria-label={`Colour of ${p.title}`} type="color" value={picked[at]!.color || "#888888"} onChange={(e) => setPicked((l) => l.map((x, i) => (i === at ? { ...x, color: e.target.value } : x)))} />
                    </>
                  )}
                </div>
              );
            })}
          </fieldset>
          <FormMessage notice={notice.notice} />
          <button type="submit" className="btn btn-primary">
            Create contest
          </button>
        </form>
      </Page>
  );
}
