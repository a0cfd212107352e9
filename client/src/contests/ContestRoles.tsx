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

type Contest = RouterOutputs["contests"]["byId"];
type Role = RouterOutputs["contests"]["roles"][number]["role"];

/** What each role may do, as the select and the list say it. */
const ROLE_NAMES: Record<Role, string> = {
  jury: "Jury (judges, answers, sees the live board; does not change the contest)",
  balloon: "Balloon runner (the balloon list only)",
};

function OwnersRoles({ contest }: { contest: Contest }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const notice = useNotice();
  const ids = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("jury");
  const query = useQuery(trpc.contests.roles.queryOptions({ id: contest.id }));
  const reload = () => qc.invalidateQueries({ queryKey: trpc.contests.roles.queryKey({ id: contest.id }) });
  const grant = async (e: FormEvent) => {
    e.preventDefault();
    const done = await notice.run(() => client.contests.grantRole.mutate({ id: contest.id, email, role }), {
      error: "Could not grant the role",
      success: (r) => `${r.name} (${r.email}) is now ${r.role === "jury" ? "on the jury" : "a balloon runner"}.`,
    });
    if (done) {
      setEmail("");
      await reload();
    }
  };
  const revoke = async (userId: string, r: Role, who: string) => {
    const done = await notice.run(() => client.contests.revokeRole.mutate({ id: contest.id, userId, role: r }), {
      error: "Could not revoke the role",
      success: `${who} no longer holds the role ${r}.`,
    });
    if (done) await reload();
  };
  return (
    <section className="card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Contest roles</h2>
      <p className="muted">Extend the jury, or let someone deliver balloons. Only the contest's owners grant and revoke roles.</p>
      <form onSubmit={(e) => void grant(e)} aria-labelledby={`${ids}-form`}>
        <h3 id={`${ids}-form`}>Grant a contest role</h3>
        <div className="roles-grant">
          <TextField id={`${ids}-email`} label="E-mail address" type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          <Select id={`${ids}-role`} label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {(Object.keys(ROLE_NAMES) as Role[]).map((r) => (
              <option key={r} value={r}>
                {ROLE_NAMES[r]}
              </option>
            ))}
          </Select>
        </div>
        <button type="submit" className="btn btn-primary btn-sm">
          Grant
        </button>
      </form>
      <FormMessage notice={notice.notice} />
      <h3>Granted roles</h3>
      <QueryState query={query} loading="Loading roles..." error="Failed to fetch the roles" isEmpty={(l) => l.length === 0} empty={<p className="muted">No role granted yet.</p>}>
        {(list) => (
          <ul aria-label="Granted roles">
            {list.map((r) => (
              <li key={`${r.userId}:${r.role}`} data-testid="contest-role">
                {r.name} ({r.email}): {r.role === "jury" ? "jury" : "balloon runner"}{" "}
                <button type="button" className="btn btn-ghost btn-sm" aria-label={`Revoke ${r.role} from ${r.email}`} onClick={() => void revoke(r.userId, r.role, r.name)}>
                  Revoke
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
  if (contest.mayChange) return <OwnersRoles contest={contest} />;
  if (contest.role !== "balloon") return null;
  return (
    <section className="card" aria-label="Balloon runner">
      <h2>Balloon runner</h2>
      <p>You deliver this contest's balloons.</p>
      <Link href={`/contests/${contest.shortName}/balloons`} className="btn btn-primary btn-sm">
        Open the balloon list
      </Link>
    </section>
  );
}
