/**
 * LMS platforms (site admins, on the admin page): the URLs to paste into an
 * LMS's tool registration, the registered platforms, a form to register one
 * (issuer, client id, deployment ids, authorization/token/JWKS URLs), removal,
 * and rotating the tool's key. The server checks every field and who asks.
 */
import { Checkbox, TextField } from "../kit/index.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { QueryState } from "../components/QueryState.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useT } from "../i18n/index.tsx";
import { lti } from "../i18n/catalog/lti/index.ts";

const EMPTY = { name: "", issuer: "", clientId: "", deploymentIds: "", authUrl: "", tokenUrl: "", jwksUrl: "" };
type LtiKey = NonNullable<(typeof lti)["keys"]>;
/** The registration form's fields: the value's name, its label's key, and a sample value (a message key for words, else the value itself). */
const FIELDS: [keyof typeof EMPTY, LtiKey, { key: LtiKey } | { sample: string }][] = [
  ["name", "platforms.field.name", { key: "platforms.field.namePlaceholder" }],
  ["issuer", "platforms.field.issuer", { sample: "https://moodle.example.edu" }],
  ["clientId", "platforms.field.clientId", { sample: "aBcD1234" }],
  ["deploymentIds", "platforms.field.deploymentIds", { sample: "1" }],
  ["authUrl", "platforms.field.authUrl", { sample: "https://moodle.example.edu/mod/lti/auth.php" }],
  ["tokenUrl", "platforms.field.tokenUrl", { sample: "https://moodle.example.edu/mod/lti/token.php" }],
  ["jwksUrl", "platforms.field.jwksUrl", { sample: "https://moodle.example.edu/mod/lti/certs.php" }],
];

export function PlatformsSection() {
  const t = useT(lti);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const platforms = useQuery(trpc.lti.platforms.queryOptions());
  const add = useMutation(trpc.lti.addPlatform.mutationOptions());
  const remove = useMutation(trpc.lti.removePlatform.mutationOptions());
  const rotate = useMutation(trpc.lti.rotateKey.mutationOptions());
  const [form, setForm] = useState(EMPTY);
  const [trustEmail, setTrustEmail] = useState(false);
  const { notice, run: runNotice } = useNotice();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.lti.platforms.queryKey() });
  const run = async (work: () => Promise<unknown>, done: string) => {
    if ((await runNotice(async () => (await work(), true), { success: done, error: t("platforms.failed") })) === true) await refresh();
  };
  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await add.mutateAsync({ ...form, trustEmail, deploymentIds: form.deploymentIds.split(",").map((d) => d.trim()).filter(Boolean) });
      setForm(EMPTY);
      setTrustEmail(false);
    }, t("platforms.registered"));
  };
  return (
    <section className="card" aria-labelledby="lti-title">
      <h2 id="lti-title">{t("platforms.title")}</h2>
      <QueryState query={platforms} loading={t("platforms.loading")} error={t("platforms.loadFailed")}>
        {(p) => (
          <>
            <p className="muted">{t("platforms.urlsIntro")}</p>
            <dl className="facts" data-testid="tool-urls">
              <dt>{t("platforms.loginUrl")}</dt>
              <dd dir="ltr">{p.tool.loginUrl}</dd>
              <dt>{t("platforms.launchUrl")}</dt>
              <dd dir="ltr">{p.tool.launchUrl}</dd>
              <dt>{t("platforms.jwksUrl")}</dt>
              <dd dir="ltr">{p.tool.jwksUrl}</dd>
            </dl>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => void run(() => rotate.mutateAsync(), t("platforms.rotated"))}>
              {t("platforms.rotate")}
            </button>
            {p.platforms.length > 0 && (
              <div className="table-scroll">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">{t("platforms.platform")}</th>
                      <th scope="col">{t("platforms.issuerClient")}</th>
                      <th scope="col">{t("platforms.deployments")}</th>
                      <th scope="col">
                        <span className="sr-only">{t("platforms.actions")}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.platforms.map((x) => (
                      <tr key={x.id}>
                        <td>{x.name}</td>
                        <td>
                          {x.issuer} <span className="muted block">{x.clientId}</span>
                        </td>
                        <td>
                          {x.deploymentIds.join(", ")}
                          {x.trustEmail && <span className="muted block">{t("platforms.emailTrusted")}</span>}
                        </td>
                        <td>
                          <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => void run(() => remove.mutateAsync({ id: x.id }), t("platforms.removed", { name: x.name }))}>
                            {t("platforms.remove")}
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </QueryState>
      <form className="form" onSubmit={onAdd} aria-label={t("platforms.registerForm")}>
        {FIELDS.map(([key, label, sample]) => (
          <TextField key={key} id={`lti-${key}`} label={t(label)} required value={form[key]} placeholder={"key" in sample ? t(sample.key) : sample.sample} onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))} />
        ))}
        <Checkbox label={t("platforms.trustEmail")} checked={trustEmail} onChange={(e) => setTrustEmail(e.target.checked)} />
        <button type="submit" className="btn btn-primary btn-sm" disabled={add.isPending}>
          {t("platforms.register")}
        </button>
      </form>
      <FormMessage notice={notice} />
    </section>
  );
}
