/**
 * One user's progress (src/progress/shape.ts `Progress`), as the progress
 * page, a public profile and a course's per-student view show it: the
 * numbers (solved, attempted, streaks, active days), the calendar
 * (./Heatmap.tsx), solved by difficulty (a table with bars drawn beside the
 * numbers), solved by topic, languages, recently solved and "pick up where you
 * left off". Problems link to their solving page when `linkProblems`.
 */
import { useTagName } from "../problems/tag-name.ts";
import { Link } from "wouter";
import type { Progress, ProgressProblem } from "../../../src/progress/shape.ts";
import type { Difficulty } from "../../../src/problems/limits.ts";
import { DateTime } from "../components/DateTime.tsx";
import { languageName } from "../lib/languages.ts";
import { T, useT } from "../i18n/index.tsx";
import { progressNs } from "../i18n/catalog/progress/index.ts";
import { Heatmap } from "./Heatmap.tsx";
import "./progress.css";

const DIFFICULTY_KEYS = { easy: "difficulty.easy", medium: "difficulty.medium", hard: "difficulty.hard" } as const;

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="progress-stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function ProblemList({ items, kind, linkProblems, empty }: { items: ProgressProblem[]; kind: "solved" | "pickUp"; linkProblems: boolean; empty: string }) {
  const t = useT(progressNs);
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="progress-problems">
      {items.map((p) => (
        <li key={p.problemId}>
          {linkProblems ? <Link href={`/solve/${p.problemId}`}>{p.title}</Link> : <span>{p.title}</span>}
          <span className={`badge badge-${p.difficulty}`}>{t(DIFFICULTY_KEYS[p.difficulty])}</span>
          <span className="muted">
            {kind === "solved" ? (
              <T ns={progressNs} k="list.solved" components={{ 0: <DateTime value={p.at} mode="auto" /> }} />
            ) : (
              <T ns={progressNs} k="list.pickUp" values={{ count: p.submissions }} components={{ 0: <DateTime value={p.at} mode="auto" /> }} />
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function ProgressView({ progress, linkProblems = true }: { progress: Progress; linkProblems?: boolean }) {
  const t = useT(progressNs);
  const tagName = useTagName();
  const maxDifficulty = Math.max(1, ...Object.values(progress.solvedByDifficulty));
  return (
    <div className="progress-view">
      <dl className="progress-stats">
        <Stat label={t("stats.solved")} value={String(progress.solved)} testId="stat-solved" />
        <Stat label={t("stats.attempted")} value={String(progress.attempted)} testId="stat-attempted" />
        <Stat label={t("stats.currentStreak")} value={t("stats.days", { count: progress.currentStreak })} testId="stat-current-streak" />
        <Stat label={t("stats.longestStreak")} value={t("stats.days", { count: progress.longestStreak })} testId="stat-longest-streak" />
        <Stat label={t("stats.activeDays")} value={String(progress.activeDays)} testId="stat-active-days" />
      </dl>
      <p className="muted">{t("stats.streakRule")}</p>

      <section className="card" aria-labelledby="calendar-title">
        <h2 id="calendar-title">{t("calendar.title")}</h2>
        <Heatmap progress={progress} />
      </section>

      <div className="progress-columns">
        <section className="card" aria-labelledby="difficulty-title">
          <h2 id="difficulty-title">{t("difficulty.title")}</h2>
          <table className="data-table progress-bars">
            <thead>
              <tr>
                <th scope="col">{t("difficulty.column")}</th>
                <th scope="col">{t("difficulty.solved")}</th>
              </tr>
            </thead>
            <tbody>
              {(Object.keys(DIFFICULTY_KEYS) as Difficulty[]).map((d) => (
                <tr key={d}>
                  <th scope="row">{t(DIFFICULTY_KEYS[d])}</th>
                  <td>
                    <span className="progress-bar-cell">
                      <span className="progress-bar-number" data-testid={`solved-${d}`}>
                        {progress.solvedByDifficulty[d]}
                      </span>
                      <span className={`progress-bar progress-bar-${d}`} style={{ inlineSize: `${(100 * progress.solvedByDifficulty[d]) / maxDifficulty}%` }} aria-hidden="true" />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <section className="card" aria-labelledby="tags-title">
          <h2 id="tags-title">{t("tags.title")}</h2>
          {progress.solvedByTag.length === 0 ? (
            <p className="muted">{t("tags.none")}</p>
          ) : (
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t("tags.column")}</th>
                  <th scope="col">{t("tags.solved")}</th>
                </tr>
              </thead>
              <tbody>
                {progress.solvedByTag.map((tag) => (
                  <tr key={tag.slug}>
                    <th scope="row">{tagName(tag)}</th>
                    <td>{tag.solved}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>

        <section className="card" aria-labelledby="languages-title">
          <h2 id="languages-title">{t("languages.title")}</h2>
          {progress.languages.length === 0 ? (
            <p className="muted">{t("languages.none")}</p>
          ) : (
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t("languages.column")}</th>
                  <th scope="col">{t("languages.submissions")}</th>
                  <th scope="col">{t("languages.solved")}</th>
                </tr>
              </thead>
              <tbody>
                {progress.languages.map((l) => (
                  <tr key={l.language}>
                    <th scope="row">{languageName(l.language)}</th>
                    <td>{l.submissions}</td>
                    <td>{l.solved}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>

      <div className="progress-columns">
        <section className="card" aria-labelledby="recent-title">
          <h2 id="recent-title">{t("recent.title")}</h2>
          <ProblemList items={progress.recentlySolved} kind="solved" linkProblems={linkProblems} empty={t("recent.none")} />
        </section>
        <section className="card" aria-labelledby="pickup-title">
          <h2 id="pickup-title">{t("pickUp.title")}</h2>
          <ProblemList items={progress.pickUp} kind="pickUp" linkProblems={linkProblems} empty={t("pickUp.none")} />
        </section>
      </div>
    </div>
  );
}
