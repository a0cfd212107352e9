/**
 * The account page's "Public profile" section: choose a handle (3–32 of
 * a–z, 0–9, _ and -; stored lower-cased), make the progress page public at
 * `/u/:handle`, and a link to it. Private by default; the public page shows
 * the handle and progress on public problems only, never a name or an e-mail
 * address. The server checks everything (`account.setProfile`): a taken
 * handle (409) or a reserved one is shown on the field.
 */
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { Link } from "wouter";
import { Checkbox, TextField } from "../kit/index.ts";
import { FormMessage, type FormNotice } from "../components/FormMessage.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { progressNs } from "../i18n/catalog/progress/index.ts";

const HANDLE_RE = /^[a-z0-9_-]{3,32}$/;

function appKindOf(error: unknown): { kind?: string; field?: string } {
  if (!(error instanceof TRPCClientError)) return {};
  const app = (error.data as { app?: { kind?: string; field?: string } } | undefined)?.app;
  return { kind: app?.kind, field: app?.field };
}

export function ProfileSection() {
  const t = useT(progressNs);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.account.profile.queryOptions());
  const [handle, setHandle] = useState("");
  const [isPublic, setIsPublic] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [notice, setNotice] = useState<FormNotice | null>(null);
  useEffect(() => {
    if (!settings.data) return;
    setHandle(settings.data.handle ?? "");
    setIsPublic(settings.data.profilePublic);
  }, [settings.data]);
  const save = useMutation(trpc.account.setProfile.mutationOptions());

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    const wanted = handle.trim().toLowerCase();
    if (wanted !== "" && !HANDLE_RE.test(wanted)) {
      setFieldError(t("profile.handleRule"));
      return;
    }
    setFieldError(null);
    try {
      const saved = await save.mutateAsync({ handle: wanted === "" ? null : wanted, profilePublic: isPublic });
      setHandle(saved.handle ?? "");
      setIsPublic(saved.profilePublic);
      await queryClient.invalidateQueries({ queryKey: trpc.account.profile.queryKey() });
      setNotice({ kind: "success", text: saved.profilePublic ? t("profile.savedPublic") : t("profile.savedPrivate") });
    } catch (err) {
      const { kind, field } = appKindOf(err);
      if (kind === "HANDLE_TAKEN") setFieldError(t("profile.handleTaken"));
      else if (kind === "HANDLE_RESERVED") setFieldError(t("profile.handleReserved"));
      else if (field === "handle") setFieldError(t("profile.handleRule"));
      else setNotice({ kind: "error", text: t("profile.saveFailed") });
    }
  };

  const current = settings.data;
  return (
    <section className="card" aria-labelledby="public-profile-title" id="public-profile">
      <h2 id="public-profile-title">{t("profile.sectionTitle")}</h2>
      <p className="muted">{t("profile.explain")}</p>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label={t("profile.handle")}
          description={t("profile.handleRule")}
          error={fieldError ?? undefined}
          value={handle}
          onChange={(e) => setHandle(e.target.value)}
          autoComplete="username"
          spellCheck={false}
          maxLength={32}
          dir="ltr"
          name="handle"
        />
        <Checkbox label={t("profile.makePublic")} description={t("profile.makePublicHint")} checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} name="profilePublic" />
        <div className="card-actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? t("profile.saving") : t("profile.save")}
          </button>
        </div>
        <FormMessage notice={notice} />
      </form>
      {current?.handle && current.profilePublic && (
        <p>
          <Link href={`/u/${current.handle}`} className="profile-handle-link">
            {t("profile.openPublic", { path: `/u/${current.handle}` })}
          </Link>
        </p>
      )}
      {current?.handle && !current.profilePublic && <p className="muted">{t("profile.isPrivate")}</p>}
    </section>
  );
}
