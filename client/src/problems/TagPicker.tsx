/**
 * The problem form's topic tags: the site's vocabulary (tags.list) as a
 * filterable checkbox list from the form kit; up to 8 (the server's limit,
 * src/problems/tags/words.ts). The filter matches a tag's name, its slug and
 * its synonyms (`dp` finds Dynamic programming). Names are shown as stored
 * (names through ./tag-name.ts: translated for the base vocabulary). `value` holds slugs.
 */
import { useTagName } from "./tag-name.ts";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { FilterCheckboxList } from "../kit/index.ts";
import { QueryState } from "../components/QueryState.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";

/** At most this many tags on a problem (src/problems/tags/words.ts MAX_TAGS_PER_PROBLEM). */
export const MAX_TAGS = 8;


export function TagPicker({ value, onChange }: { value: readonly string[]; onChange: (slugs: string[]) => void }) {
  const t = useT(problems);
  const trpc = useTRPC();
  const vocabulary = useQuery({ ...trpc.tags.list.queryOptions(), staleTime: 60_000 });
  const tagName = useTagName();
  const items = useMemo(
    // The name as shown (translated for the base vocabulary); the stored name, slug and synonyms also match the filter.
    () => (vocabulary.data ?? []).map((tag) => ({ value: tag.slug, label: tagName(tag), keywords: [tag.name, tag.slug, ...tag.synonyms] })),
    [vocabulary.data, tagName],
  );
  return (
    <QueryState query={vocabulary} loading={t("tagPicker.loading")} error={t("tagPicker.loadFailed")}>
      {() => (
        <FilterCheckboxList
          label={t("tagPicker.legend")}
          description={t("tagPicker.description", { max: MAX_TAGS })}
          items={items}
          value={value}
          onChange={onChange}
          max={MAX_TAGS}
          filterLabel={t("tagPicker.filter")}
          chosenLabel={t("tagPicker.chosen")}
          removeLabel={(name) => t("tagPicker.remove", { name })}
          status={({ shown, total, chosen, full }) => (full ? t("tagPicker.full", { max: MAX_TAGS }) : t("tagPicker.status", { shown, total, chosen }))}
          noMatch={(query) => t("tagPicker.noMatch", { query })}
        />
      )}
    </QueryState>
  );
}
