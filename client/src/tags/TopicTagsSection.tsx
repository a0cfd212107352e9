/**
 * The admin page's "Topic tags" (site admins): the vocabulary as a table
 * (name, slug, synonyms, problems carrying it), a form to add a tag, and, for
 * the tag chosen in "Tag to change", renaming it (the slug stays), adding and
 * removing synonyms, merging it into another tag (its problems and synonyms
 * move; its slug and name become synonyms) and deleting it (after a second
 * press). The server checks every field and who asks (src/problems/tags).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Select, TextField } from "../kit/index.ts";
import { QueryState } from "../components/QueryState.tsx";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { tagsAdmin } from "../i18n/catalog/tagsAdmin/index.ts";
import { isBaseTag, useTagName } from "../problems/tag-name.ts";
import { activeLocale, intlLocales } from "../i18n/locale.ts";

export function TopicTagsSection() {
  const t = useT(tagsAdmin);
  const tagName = useTagName();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tags.list.queryOptions());
  const usage = useQuery(trpc.tags.usage.queryOptions());
  const create = useMutation(trpc.tags.create.mutationOptions());
  const rename = useMutation(trpc.tags.rename.mutationOptions());
  const addSynonym = useMutation(trpc.tags.addSynonym.mutationOptions());
  const removeSynonym = useMutation(trpc.tags.removeSynonym.mutationOptions());
  const merge = useMutation(trpc.tags.merge.mutationOptions());
  const remove = useMutation(trpc.tags.delete.mutationOptions());
  const { notice, run: runNotice } = useNotice();
  const [fresh, setFresh] = useState({ slug: "", name: "" });
  const [selected, setSelected] = useState("");
  const [newName, setNewName] = useState("");
  const [synonym, setSynonym] = useState("");
  const [into, setInto] = useState("");
  const [confirmDelete, setConfirmDelete] = useState(false);

  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.tags.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.tags.usage.queryKey() })]);
  const run = async (work: () => Promise<unknown>, done: string) => {
    const ok = await runNotice(async () => (await work(), true), { success: done, error: t("failed") });
    if (ok) await refresh();
    return ok === true;
  };
  const choose = (slug: string) => {
    setSelected(slug);
    setNewName("");
    setSynonym("");
    setInto("");
    setConfirmDelete(false);
  };

  const tags = list.data ?? [];
  // The synonyms are the vocabulary's own words; the list's commas are the reader's language's.
  const synonymList = new Intl.ListFormat(intlLocales(activeLocale()), { style: "short", type: "unit" });
  const current = tags.find((x) => x.slug === selected) ?? null;

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await create.mutateAsync(fresh);
      setFresh({ slug: "", name: "" });
    }, t("created", { name: fresh.name.trim() }));
  };
  const onRename = (e: FormEvent) => {
    e.preventDefault();
    if (current) void run(async () => (await rename.mutateAsync({ slug: current.slug, name: newName }), setNewName("")), t("renamed", { name: newName.trim() }));
  };
  const onAddSynonym = (e: FormEvent) => {
    e.preventDefault();
    if (current) void run(async () => (await addSynonym.mutateAsync({ slug: current.slug, synonym }), setSynonym("")), t("synonymAdded", { synonym: synonym.trim(), name: tagName(current) }));
  };
  const onMerge = (e: FormEvent) => {
    e.preventDefault();
    const target = tags.find((x) => x.slug === into);
    if (current && target) {
      void run(() => merge.mutateAsync({ slug: current.slug, into: target.slug }), t("merged", { name: tagName(current), into: tagName(target) })).then((ok) => ok && choose(""));
    }
  };
  const onDelete = () => {
    if (!current) return;
    if (!confirmDelete) return setConfirmDelete(true);
    void run(() => remove.mutateAsync({ slug: current.slug }), t("deleted", { name: tagName(current) })).then((ok) => ok && choose(""));
  };

  return (
    <section className="card" aria-labelledby="tags-title">
      <h2 id="tags-title">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      <QueryState query={list} loading={t("loading")} error={t("loadFailed")}>
        {(all) => (
          <div className="table-scroll" role="region" aria-labelledby="tags-title" tabIndex={0}>
            <table className="data-table" data-testid="topic-tags">
              <caption className="sr-only">{t("caption", { count: all.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("col.name")}</th>
                  <th scope="col">{t("col.slug")}</th>
                  <th scope="col">{t("col.synonyms")}</th>
                  <th scope="col">{t("col.problems")}</th>
                </tr>
              </thead>
              <tbody>
                {all.map((tag) => (
                  <tr key={tag.slug}>
                    {/* A tag an admin added is named as stored (data, not interface text); the base vocabulary's names are translated. */}
                    <th scope="row">{isBaseTag(tag.slug) ? tagName(tag) : <span translate="no">{tag.name}</span>}</th>
                    <td className="mono" dir="ltr" translate="no">
                      {tag.slug}
                    </td>
                    <td>{tag.synonyms.length ? <span translate="no">{synonymList.format(tag.synonyms)}</span> : <span className="muted">{t("none")}</span>}</td>
                    <td>{usage.data?.[tag.slug] ?? 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>

      <form className="form" onSubmit={onCreate} aria-labelledby="tags-create-title">
        <h3 id="tags-create-title">{t("create.title")}</h3>
        <div className="field-row">
          <TextField id="tag-new-name" label={t("create.name")} required value={fresh.name} onChange={(e) => setFresh((f) => ({ ...f, name: e.target.value }))} />
          <TextField
            id="tag-new-slug"
            label={t("create.slug")}
            description={t("create.slugHint")}
            required
            dir="ltr"
            value={fresh.slug}
            onChange={(e) => setFresh((f) => ({ ...f, slug: e.target.value }))}
          />
        </div>
        <button type="submit" className="btn btn-primary btn-sm" disabled={create.isPending}>
          {t("create.submit")}
        </button>
      </form>

      <div className="form">
        <h3 id="tags-change-title">{t("change.title")}</h3>
        <Select id="tag-selected" label={t("change.choose")} value={selected} onChange={(e) => choose(e.target.value)}>
          <option value="">{t("change.none")}</option>
          {tags.map((tag) => (
            <option key={tag.slug} value={tag.slug}>
              {tagName(tag)}
            </option>
          ))}
        </Select>
        {current && (
          <div role="group" aria-labelledby="tags-change-title">
            <form className="form" onSubmit={onRename}>
              <TextField id="tag-rename" label={t("change.newName", { name: tagName(current) })} required value={newName} onChange={(e) => setNewName(e.target.value)} />
              <button type="submit" className="btn btn-ghost btn-sm" disabled={rename.isPending}>
                {t("change.rename")}
              </button>
            </form>
            <h4>{t("change.synonymsOf", { name: tagName(current) })}</h4>
            {current.synonyms.length === 0 ? (
              <p className="muted">{t("change.noSynonyms")}</p>
            ) : (
              <ul className="kit-chips" aria-label={t("change.synonymsOf", { name: tagName(current) })}>
                {current.synonyms.map((s) => (
                  <li key={s} className="kit-chip">
                    <span>{s}</span>
                    <button
                      type="button"
                      className="kit-chip-remove"
                      aria-label={t("change.removeSynonym", { synonym: s })}
                      onClick={() => void run(() => removeSynonym.mutateAsync({ slug: current.slug, synonym: s }), t("synonymRemoved", { synonym: s }))}
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <form className="form" onSubmit={onAddSynonym}>
              <TextField id="tag-synonym" label={t("change.synonym")} description={t("change.synonymHint")} required value={synonym} onChange={(e) => setSynonym(e.target.value)} />
              <button type="submit" className="btn btn-ghost btn-sm" disabled={addSynonym.isPending}>
                {t("change.addSynonym")}
              </button>
            </form>
            <form className="form" onSubmit={onMerge}>
              <Select id="tag-merge-into" label={t("change.mergeInto", { name: tagName(current) })} description={t("change.mergeHint")} required value={into} onChange={(e) => setInto(e.target.value)}>
                <option value="">{t("change.chooseTarget")}</option>
                {tags
                  .filter((x) => x.slug !== current.slug)
                  .map((tag) => (
                    <option key={tag.slug} value={tag.slug}>
                      {tagName(tag)}
                    </option>
                  ))}
              </Select>
              <button type="submit" className="btn btn-ghost btn-sm" disabled={merge.isPending || !into}>
                {t("change.merge")}
              </button>
            </form>
            <p className="muted">
              {(usage.data?.[current.slug] ?? 0) === 0 ? t("change.deleteHintNone") : t("change.deleteHint", { count: usage.data?.[current.slug] ?? 0 })}
            </p>
            <button type="button" className="btn btn-danger-ghost btn-sm" onClick={onDelete} disabled={remove.isPending}>
              {confirmDelete ? t("change.confirmDelete", { name: tagName(current) }) : t("change.delete", { name: tagName(current) })}
            </button>
          </div>
        )}
      </div>
      <FormMessage notice={notice} />
    </section>
  );
}
