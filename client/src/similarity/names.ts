/** Names on the similarity screens: real, or anonymised ("Student 3") for a review without bias. Stable per report. */
import { useEffect, useState } from "react";
import type { MessageValues } from "../i18n/index.tsx";

/** The messages a namer needs: `useT(similarity)` passes. */
export type NamesT = (key: "names.student" | "names.team" | "names.past", values?: MessageValues) => string;

export interface Owned {
  submissionId: string;
  owner: { kind: "user" | "team"; id: string; name: string };
  past: { title: string } | null;
}

/** Whether names are hidden, kept across the report's pages in this browser. */
export function useAnonymous(): [boolean, (v: boolean) => void] {
  const [hidden, setHidden] = useState(() => localStorage.getItem("oj.similarity.anonymous") === "1");
  useEffect(() => localStorage.setItem("oj.similarity.anonymous", hidden ? "1" : "0"), [hidden]);
  return [hidden, setHidden];
}

/** A namer for a report's programs: by owner, numbered in the report's order when hidden ("Student 3", "Team 2"); a past offering's title follows in brackets. */
export function namer(programs: readonly Owned[], hidden: boolean, t: NamesT): (submissionId: string) => string {
  const number = new Map<string, number>();
  for (const p of programs) if (!number.has(p.owner.id)) number.set(p.owner.id, number.size + 1);
  const bySubmission = new Map(programs.map((p) => [p.submissionId, p]));
  return (submissionId) => {
    const p = bySubmission.get(submissionId);
    if (!p) return submissionId;
    const n = number.get(p.owner.id);
    const name = hidden ? (p.owner.kind === "team" ? t("names.team", { number: n }) : t("names.student", { number: n })) : p.owner.name;
    return p.past ? t("names.past", { name, offering: p.past.title }) : name;
  };
}
