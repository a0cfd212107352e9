/**
 * One problem of the bank: title, badges (kind, difficulty), the viewer's
 * status (solved ✓ / attempted / not tried, in words as well as marks), its
 * solvers and acceptance rate (locale-formatted), its tags as buttons that
 * filter by that tag, and for a search what matched with the matched words
 * in <mark> (plain text from the server's offsets, never HTML). Solve and My
 * Submissions; for the owner Edit, Export (a Kattis / ICPC package zip),
 * Rejudge and Delete (with a confirmation step).
 */
import type { Ref } from "react";
import { Link } from "wouter";
import type { BankMatch, BankProblem, BankTag } from "../../../src/problems/bank/shape.ts";
import type { Difficulty } from "../lib/types.ts";
import { useT } from "../i18n/index.tsx";
import { activeLocale, intlLocales } from "../i18n/locale.ts";
import { problems } from "../i18n/catalog/problems/index.ts";
import { formatCount, formatRate, matchRuns } from "./bank-format.ts";
import { useTagName } from "./tag-name.ts";

const BADGE_KEYS = { easy: "badge.easy", medium: "badge.medium", hard: "badge.hard" } as const satisfies Record<Difficulty, string>;

/** The owner's actions, wired by the page (useProblemEditor). */
export interface OwnerActions {
  confirmingDelete: boolean;
  deleting: boolean;
  onEdit: () => void;
  onAskDelete: () => void;
  onConfirmDelete: () => void;
  onKeep: () => void;
  /** Rejudge every judged submission. */
  onRejudge: () => void;
  rejudging: boolean;
}

interface Props {
  problem: BankProblem;
  /** The tag the bank is filtered by (its chip shows as chosen). */
  activeTag: string | null;
  onTag: (tag: BankTag) => void;
  owner: OwnerActions;
  /** The heading, focusable from script (the first card of a page loaded with "Show more" takes the focus). */
  headingRef?: Ref<HTMLHeadingElement>;
}

/** Text with the matched words in <mark>. */
function Marked({ match }: { match: BankMatch }) {
  return matchRuns(match).map((r, i) => (r.marked ? <mark key={i}>{r.text}</mark> : <span key={i}>{r.text}</span>));
}

export function ProblemCard({ problem: p, activeTag, onTag, owner, headingRef }: Props) {
  const t = useT(problems);
  const tagName = useTagName();
  const locales = intlLocales(activeLocale());
  const titleMatch = p.match?.field === "title" ? p.match : null;
  const statementMatch = p.match?.field === "statement" ? p.match : null;
  return (
    <li className="card problem-card" data-testid="problem-card">
      <div className="problem-card-head">
        <h2 className="problem-card-title" ref={headingRef} tabIndex={-1}>
          {/* User content in its own direction (an English title in the Arabic interface keeps its punctuation in place). */}
          <bdi>{titleMatch ? <Marked match={titleMatch} /> : p.title}</bdi>
        </h2>
        {/* The badges wrap among themselves, so longer words (other languages) do not squeeze the title. */}
        <span className="problem-card-badges">
          {p.interactive && <span className="badge badge-kind">{t("badge.interactive")}</span>}
          {p.scoring && <span className="badge badge-kind">{t("badge.scoring")}</span>}
          <span className={`badge badge-${p.difficulty}`}>{t(BADGE_KEYS[p.difficulty])}</span>
        </span>
      </div>
      <p className="bank-facts">
        {p.viewerStatus === "solved" ? (
          <span className="bank-status bank-status-solved" data-testid="status-solved">
            <span aria-hidden="true">✓ </span>
            {t("status.solved")}
          </span>
        ) : p.viewerStatus === "attempted" ? (
          <span className="bank-status bank-status-attempted" data-testid="status-attempted">
            <span aria-hidden="true">○ </span>
            {t("status.attempted")}
          </span>
        ) : (
          <span className="sr-only">{t("status.untried")}</span>
        )}
        {p.acceptanceRate === null ? (
          <span>{t("card.noSubmissions")}</span>
        ) : (
          <>
            <span>{t("card.solvers", { count: p.solvers, n: formatCount(p.solvers, locales) })}</span>
            <span>{t("card.acceptance", { rate: formatRate(p.acceptanceRate, locales) })}</span>
          </>
        )}
      </p>
      {statementMatch && (
        <p className="bank-match">
          <span className="sr-only">{t("card.matched")} </span>
          <span className="statement-preview bank-match-text" dir="auto">
            <Marked match={statementMatch} />
          </span>
        </p>
      )}
      {p.tags.length > 0 && (
        <ul className="bank-tags" aria-label={t("card.tags")}>
          {p.tags.map((tag) => (
            <li key={tag.slug}>
              <button
                type="button"
                className={`bank-chip${activeTag === tag.slug ? " active" : ""}`}
                aria-label={t("card.filterByTag", { tag: tagName(tag) })}
                onClick={() => onTag(tag)}
              >
                {tagName(tag)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {!p.owned && <p className="owner-note">{t("card.byAnotherUser")}</p>}
      <div className="card-actions">
        <Link href={`/solve/${p.id}`} className="btn btn-primary btn-sm">
          {t("card.solve")}
        </Link>
        <Link href={`/my-submissions/${p.id}`} className="btn btn-ghost btn-sm">
          {t("card.mySubmissions")}
        </Link>
        {p.owned &&
          (owner.confirmingDelete ? (
            <span className="confirm-delete" style={{ flexWrap: "wrap" }} role="group" aria-label={t("card.confirmGroup", { title: p.title })}>
              <button type="button" className="btn btn-danger btn-sm" onClick={owner.onConfirmDelete} disabled={owner.deleting}>
                {t("card.confirmDelete")}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={owner.onKeep}>
                {t("card.keep")}
              </button>
            </span>
          ) : (
            <>
              <button type="button" className="btn btn-ghost btn-sm" onClick={owner.onEdit} aria-label={t("card.editLabel", { title: p.title })}>
                {t("card.edit")}
              </button>
              {/* The session cookie authorises the download; the server checks ownership. */}
              <a className="btn btn-ghost btn-sm" href={`/api/problems/${encodeURIComponent(p.id)}/package`} download aria-label={t("card.exportLabel", { title: p.title })}>
                {t("card.export")}
              </a>
              <button type="button" className="btn btn-ghost btn-sm" onClick={owner.onRejudge} disabled={owner.rejudging} aria-label={t("card.rejudgeLabel", { title: p.title })}>
                {t("card.rejudge")}
              </button>
              <button type="button" className="btn btn-danger-ghost btn-sm" onClick={owner.onAskDelete} aria-label={t("card.deleteLabel", { title: p.title })}>
                {t("card.delete")}
              </button>
            </>
          ))}
      </div>
    </li>
  );
}
