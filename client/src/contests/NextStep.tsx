/**
 * What a visitor of a contest page can do now, said in one place
 * (docs/decisions/056-return-path-and-onboarding.md):
 * - signed out (`anonymous`): "Sign in to register" (or to take part virtually once it is over),
 *   a real link that comes back to this page, and sign-up beside it;
 * - signed in, not registered (`public`): what registering gives now, and the page's Register form
 *   (`register`: ContestPage's, with the registration code field when the contest asks for one);
 *   a roster contest says who registers;
 * - registered before the start (own window, virtual included): when it starts, with a countdown;
 * - a course contest hidden from a guest (the server's 404, `HiddenFromGuest`): sign in and come back.
 * The problems list's empty text (`problemsHiddenKey`) follows the same states.
 */
import type { ReactNode } from "react";
import { Link } from "wouter";
import { formatDateTime } from "../lib/dates.ts";
import { currentPath, signInHref, signUpHref } from "../lib/next.ts";
import { T, useT } from "../i18n/index.tsx";
import { contests, type ContestsKey } from "../i18n/catalog/contests/index.ts";
import type { Contest } from "./Clarifications.tsx";
import { countdown, windowOf } from "./format.ts";

/** "Nov 27, 2026 11:00 PM (GMT+01:00)": a contest's start in the viewer's locale and zone. */
const localTime = (iso: string) => formatDateTime(iso, { withZone: true });

/** A signed-out visitor: sign in (or up) and come back to this page. */
function SignInToTakePart({ contest }: { contest: Contest }) {
  const t = useT(contests);
  const here = currentPath();
  return (
    <p className="card" data-testid="next-step">
      <Link href={signInHref(here)} className="btn btn-primary btn-sm">
        {contest.phase === "over" ? t("nextStep.signInToTakePartVirtually") : t("nextStep.signInToRegister")}
      </Link>{" "}
      <span className="muted">
        {contest.phase === "upcoming" && <>{t("nextStep.startsAt", { when: localTime(contest.startsAt) })} </>}
        {contest.phase === "running" && <>{t("nextStep.runningRegisteredSee")} </>}
        <T ns={contests} k="nextStep.noAccount" components={{ 0: <Link href={signUpHref(here)} /> }} />
      </span>
    </p>
  );
}

/**
 * The one next step of this visitor, or nothing (the jury; a participant whose window has started).
 * @param nowMs the page's clock, ms since the epoch.
 */
export function NextStep({ contest, nowMs, register }: { contest: Contest; nowMs: number; register: ReactNode }) {
  const t = useT(contests);
  if (contest.role === "anonymous") return <SignInToTakePart contest={contest} />;
  if (contest.role === "public") {
    if (contest.registration === "roster" && contest.phase !== "over") {
      return (
        <p className="card" data-testid="next-step">
          {t("nextStep.roster")}
        </p>
      );
    }
    if (contest.phase === "over") return <>{register}</>;
    return (
      <>
        <p className="card" data-testid="next-step">
          {contest.phase === "running" ? t("nextStep.runningRegisterBelow") : t("nextStep.registerBelow", { when: localTime(contest.startsAt) })}
        </p>
        {register}
      </>
    );
  }
  if (contest.role === "participant") {
    const mine = windowOf(contest);
    if (Date.parse(mine.startsAt) <= nowMs) return null;
    const left = countdown(mine.startsAt, nowMs, t);
    const when = localTime(mine.startsAt);
    return (
      <p className="card" data-testid="next-step" role="status">
        {left ? (
          <T ns={contests} k="nextStep.registeredCountdown" values={{ when, left }} components={{ 0: <strong /> }} />
        ) : (
          <T ns={contests} k="nextStep.registered" values={{ when }} components={{ 0: <strong /> }} />
        )}
      </p>
    );
  }
  return null;
}

/** The `contests` catalogue's key of the problems list's text while it is empty, for this visitor. */
export function problemsHiddenKey(contest: Contest): ContestsKey {
  if (contest.phase !== "upcoming" && (contest.role === "anonymous" || contest.role === "public")) {
    return contest.role === "anonymous" ? "nextStep.hiddenSignInAndRegister" : "nextStep.hiddenRegister";
  }
  // A contest that asks for an entry (a proctor's password, one session, lock-down) shows its problems from it.
  if (contest.phase !== "upcoming" && contest.role === "participant" && contest.exam.needsEntry && !contest.exam.enteredAt) return "nextStep.hiddenUntilEntry";
  return "nextStep.hiddenUntilStart";
}

/** A contest the server does not show a guest (a course's, or none): sign in and come back here. */
export function HiddenFromGuest() {
  const t = useT(contests);
  const here = currentPath();
  return (
    <section className="card" data-testid="next-step" aria-labelledby="hidden-contest-title">
      <h1 id="hidden-contest-title" className="page-title">
        {t("nextStep.guestTitle")}
      </h1>
      <p>{t("nextStep.guestText")}</p>
      <p>
        <Link href={signInHref(here)} className="btn btn-primary btn-sm">
          {t("nextStep.signIn")}
        </Link>{" "}
        <Link href={signUpHref(here)} className="text-link">
          {t("nextStep.createAccount")}
        </Link>
      </p>
    </section>
  );
}
