/**
 * A contest's roles (decision 053), on the contest page: for its owners (its
 * creator, a course contest's teachers, site admins: `mayChange`) the
 * "Contest roles" region, granting `jury` or `balloon` to an account by
 * e-mail address and listing the granted roles with a Revoke button each;
 * for a balloon runner, the way to the balloon list. The server decides who
 * may (src/contests/permissions.ts `roles.manage`); this only hides what it
 * would refuse.
 */
import { useId, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { useNotice } from "../lib/notice.ts";
import { Select, TextField } from "../kit/index.ts";
import { useTRPC, useTRPCClient, type RouterOutputs } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";

type Contest = RouterOutputs["contests"]["byId"];
type Role = RouterOutputs["contests"]["roles"][number]["role"];

/** What each role may do, as the select says it (keys of the `contests` catalogue). */
const ROLE_NAMES = {
  jury: "roles.jury",
  balloon: "roles.balloon",
} as const satisfies Record<Role, string>;

function OwnersRoles({ contest }: { contest: Contest }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const notice = useNotice();
  const ids = useId();
  const t = useT(contests);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("jury");
  const query = useQuery(trpc.contests.roles.queryOptions({ id: contest.id }));
  const reload = () => qc.invalidateQueries({ queryKey: trpc.contests.roles.queryKey({ id: contest.id }) });
  const grant = async (e: FormEvent) => {
    e.preventDefault();
    const done = await notice.run(() => client.contests.grantRole.mutate({ id: contest.id, email, role }), {
      error: t("roles.grantError"),
      success: (r) => t("roles.granted", { name: r.name, email: r.email, role: r.role }),
    });
    if (done) {
      setEmail("");
      await reload();
    }
  };
  const revoke = async (userId: string, r: Role, who: string) => {
    const done = await notice.run(() => client.contests.revokeRole.mutate({ id: contest.id, userId, role: r }), {
      error: t("roles.revokeError"),
      success: t("roles.revoked", { name: who, role: r }),
    });
    if (done) await reload();
  };
  return (
    <section className="card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t("roles.title")}</h2>
      <p className="muted">{t("roles.intro")}</p>
      <form onSubmit={(e) => void grant(e)} aria-labelledby={`${ids}-form`}>
        <h3 id={`${ids}-form`}>{t("roles.grantTitle")}</h3>
        <div className="roles-grant">
          <TextField id={`${ids}-email`} label={t("roles.email")} type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          <Select id={`${ids}-role`} label={t("roles.role")} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {(Object.keys(ROLE_NAMES) as Role[]).map((r) => (
              <option key={r} value={r}>
                {t(ROLE_NAMES[r])}
              </option>
            ))}
          </Select>
        </div>
        <button type="submit" className="btn btn-primary btn-sm">
          {t("roles.grant")}
        </button>
      </form>
      <FormMessage notice={notice.notice} />
      <h3>{t("roles.grantedTitle")}</h3>
      <QueryState query={query} loading={t("roles.loading")} error={t("roles.loadError")} isEmpty={(l) => l.length === 0} empty={<p className="muted">{t("roles.empty")}</p>}>
        {(list) => (
          <ul aria-label={t("roles.grantedTitle")}>
            {list.map((r) => (
              <li key={`${r.userId}:${r.role}`} data-testid="contest-role">
                {t("roles.item", { name: r.name, email: r.email, role: r.role })}{" "}
                <button type="button" className="btn btn-ghost btn-sm" aria-label={t("roles.revokeLabel", { role: r.role, email: r.email })} onClick={() => void revoke(r.userId, r.role, r.name)}>
                  {t("roles.revoke")}
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

/** The contest page's roles part: the owners' region, or a balloon runner's way to the list; nothing for anyone else. */
export function ContestRoles({ contest }: { contest: Contest }) {
  const t = useT(contests);
  if (contest.mayChange) return <OwnersRoles contest={contest} />;
  if (contest.role !== "balloon") return null;
  return (
    <section className="card" aria-label={t("roles.runnerTitle")}>
      <h2>{t("roles.runnerTitle")}</h2>
      <p>{t("roles.runnerText")}</p>
      <Link href={`/contests/${contest.shortName}/balloons`} className="btn btn-primary btn-sm">
        {t("roles.openBalloons")}
      </Link>
    </section>
  );
}
