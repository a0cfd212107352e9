/** Names on the similarity screens: real, or anonymised ("Student 3") for a review without bias. Stable per report. */
import { useEffect, useState } from "react";

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

/** A namer for a report's programs: by owner, numbered in the report's order when hidden. */
export function namer(programs: readonly Owned[], hidden: boolean): (submissionId: string) => string {
  const number = new Map<string, number>();
  for (const p of programs) if (!number.has(p.owner.id)) number.set(p.owner.id, number.size + 1);
  const bySubmission = new Map(programs.map((p) => [p.submissionId, p]));
  return (submissionId) => {
    const p = bySubmission.get(submissionId);
    if (!p) return submissionId;
    const name = hidden ? `${p.owner.kind === "team" ? "Team" : "Student"} ${number.get(p.owner.id)}` : p.owner.name;
    return p.past ? `${name} (${p.past.title})` : name;
  };
}
