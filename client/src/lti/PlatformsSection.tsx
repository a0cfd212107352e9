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

const EMPTY = { name: "", issuer: "", clientId: "", deploymentIds: "", authUrl: "", tokenUrl: "", jwksUrl: "" };
const FIELDS: [keyof typeof EMPTY, string, string][] = [
  ["name", "Name", "Moodle at Example University"],
  ["issuer", "Issuer (platform ID)", "https://moodle.example.edu"],
  ["clientId", "Client ID", "aBcD1234"],
  ["deploymentIds", "Deployment IDs (comma-separated)", "1"],
  ["authUrl", "Authentication request URL", "https://moodle.example.edu/mod/lti/auth.php"],
  ["tokenUrl", "Access token URL", "https://moodle.example.edu/mod/lti/token.php"],
  ["jwksUrl", "Public keyset URL", "https://moodle.example.edu/mod/lti/certs.php"],
];

export function PlatformsSection() {
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
    if ((await runNotice(async () => (await work(), true), { success: done, error: "That did not work." })) === true) await refresh();
  };
  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await add.mutateAsync({ ...form, trustEmail, deploymentIds: form.deploymentIds.split(",").map((d) => d.trim()).filter(Boolean) });
      setForm(EMPTY);
      setTrustEmail(false);
    }, "Platform registered.");
  };
  return (
    <section className="card" aria-labelledby="lti-title">
      <h2 id="lti-title">LMS platforms (LTI 1.3)</h2>
      <QueryState query={platforms} loading="Loading platforms..." error="Failed to fetch the LMS platforms (site admins only)">
        {(p) => (
          <>
            <p className="muted">Give the LMS these URLs when registering this tool:</p>
            <dl className="facts" data-testid="tool-urls">
              <dt>Login (initiate login) URL</dt>
              <dd>{p.tool.loginUrl}</dd>
              <dt>Launch (redirect) URL, also for deep linking</dt>
              <dd>{p.tool.launchUrl}</dd>
              <dt>Public keyset (JWKS) URL</dt>
              <dd>{p.tool.jwksUrl}</dd>
            </dl>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => void run(() => rotate.mutateAsync(), "New tool key made; the old one stays published for a week.")}>
              Rotate the tool's key
            </button>
            {p.platforms.length > 0 && (
              <div className="table-scroll">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">Platform</th>
                      <th scope="col">Issuer and client</th>
                      <th scope="col">Deployments</th>
                      <th scope="col" />
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
                          {x.trustEmail && <span className="muted block">email trusted</span>}
                        </td>
                        <td>
                          <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => void run(() => remove.mutateAsync({ id: x.id }), `${x.name} removed.`)}>
                            Remove
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
      <form className="form" onSubmit={onAdd} aria-label="Register a platform">
        {FIELDS.map(([key, label, placeholder]) => (
          <TextField key={key} id={`lti-${key}`} label={label} required value={form[key]} placeholder={placeholder} onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))} />
        ))}
        <Checkbox label="Trust this LMS's email addresses (a launch may then link to an existing account with the same email and take up staff invitations; leave off unless the LMS's users cannot change their email)" checked={trustEmail} onChange={(e) => setTrustEmail(e.target.checked)} />
        <button type="submit" className="btn btn-primary btn-sm" disabled={add.isPending}>
          Register platform
        </button>
      </form>
      <FormMessage notice={notice} />
    </section>
  );
}
