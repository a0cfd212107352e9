/**
 * The problem bank's controls: the search box (searches once typing pauses,
 * SEARCH_DEBOUNCE_MS; Enter searches at once), filters by tag, status and
 * source, the sort, and the spoiler-free switch (tags hidden on every card,
 * remembered on the account). Every control is a native one from the kit,
 * labelled; the address holds the values (the page owns them).
 */
import { useEffect, useRef, useState } from "react";
import type { BankTagCount } from "../../../src/problems/bank/shape.ts";
import { Checkbox, Select, TextField } from "../kit/index.ts";
import { useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";
import { QUERY_MAX_CHARS, SEARCH_DEBOUNCE_MS, SORTS, SOURCES, STATUSES, type BankFilters as Filters } from "./bank-filters.ts";
import { useTagName } from "./tag-name.ts";

const SORT_KEYS = { newest: "sort.newest", title: "sort.title", acceptance: "sort.acceptance", solvers: "sort.solvers" } as const satisfies Record<(typeof SORTS)[number], string>;
const STATUS_KEYS = { solved: "filter.statusSolved", attempted: "filter.statusAttempted", untried: "filter.statusUntried" } as const satisfies Record<(typeof STATUSES)[number], string>;
const SOURCE_KEYS = { public: "filter.sourcePublic", course: "filter.sourceCourse", contest: "filter.sourceContest" } as const satisfies Record<(typeof SOURCES)[number], string>;

/** The search box's id (Clear filters moves the focus there). */
export const SEARCH_INPUT_ID = "bank-search";

interface Props {
  filters: Filters;
  /** Applies a change (the page writes it into the address). */
  onChange: (next: Filters) => void;
  tags: readonly BankTagCount[];
  hideTags: boolean;
  onHideTags: (hide: boolean) => void;
}

export function BankFilters({ filters, onChange, tags, hideTags, onHideTags }: Props) {
  const t = useT(problems);
  const tagName = useTagName();
  const [draft, setDraft] = useState(filters.q);
  // The last search this box sent: an address change from elsewhere (Back, a link) replaces the draft, its own echo does not.
  const sent = useRef(filters.q);
  useEffect(() => {
    if (filters.q !== sent.current) {
      sent.current = filters.q;
      setDraft(filters.q);
    }
  }, [filters.q]);

  // The search reads the filters of the latest render (a tag chosen while the wait runs is kept).
  const latest = useRef({ filters, onChange });
  latest.current = { filters, onChange };
  const search = (q: string) => {
    const now = latest.current.filters;
    if (q.trim() === now.q.trim()) return;
    sent.current = q.trim();
    latest.current.onChange({ ...now, q: q.trim() });
  };
  useEffect(() => {
    const timer = setTimeout(() => search(draft), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new draft restarts the wait
  }, [draft]);

  const named = tags.map((tag) => ({ slug: tag.slug, label: tagName(tag), problems: tag.problems })).sort((a, b) => a.label.localeCompare(b.label));
  const unknownTag = filters.tag && !tags.some((tag) => tag.slug === filters.tag) ? filters.tag : null;

  return (
    <div className="bank-controls">
      <form
        role="search"
        className="bank-search"
        onSubmit={(e) => {
          e.preventDefault();
          search(draft);
        }}
      >
        <TextField
          id={SEARCH_INPUT_ID}
          type="search"
          label={t("search.label")}
          placeholder={t("search.placeholder")}
          value={draft}
          maxLength={QUERY_MAX_CHARS}
          onChange={(e) => setDraft(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </form>
      <div className="bank-filters">
        <Select label={t("filter.tag")} value={filters.tag ?? ""} onChange={(e) => onChange({ ...filters, tag: e.target.value || null })}>
          <option value="">{t("filter.anyTag")}</option>
          {unknownTag && <option value={unknownTag}>{unknownTag}</option>}
          {named.map((tag) => (
            <option key={tag.slug} value={tag.slug}>
              {t("filter.tagOption", { tag: tag.label, count: tag.problems })}
            </option>
          ))}
        </Select>
        <Select label={t("filter.status")} value={filters.status ?? ""} onChange={(e) => onChange({ ...filters, status: STATUSES.find((s) => s === e.target.value) ?? null })}>
          <option value="">{t("filter.anyStatus")}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(STATUS_KEYS[s])}
            </option>
          ))}
        </Select>
        <Select label={t("filter.source")} value={filters.source ?? ""} onChange={(e) => onChange({ ...filters, source: SOURCES.find((s) => s === e.target.value) ?? null })}>
          <option value="">{t("filter.anySource")}</option>
          {SOURCES.map((s) => (
            <option key={s} value={s}>
              {t(SOURCE_KEYS[s])}
            </option>
          ))}
        </Select>
        <Select label={t("sort.label")} value={filters.sort} onChange={(e) => onChange({ ...filters, sort: SORTS.find((s) => s === e.target.value) ?? "newest" })}>
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {t(SORT_KEYS[s])}
            </option>
          ))}
        </Select>
      </div>
      <Checkbox
        className="bank-spoilers"
        role="switch"
        checked={hideTags}
        onChange={(e) => onHideTags(e.target.checked)}
        label={t("filter.hideTags")}
        description={t("filter.hideTagsHint")}
      />
    </div>
  );
}
