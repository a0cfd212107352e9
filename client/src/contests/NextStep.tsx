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
 * The problems list's empty text (`problemsHiddenText`) follows the same states.
 */
import type { ReactNode } from "react";
import { Link } from "wouter";
import { countdown, localTime } from "../courses/format.ts";
import { currentPath, signInHref, signUpHref } from "../lib/next.ts";
import type { Contest } from "./Clarifications.tsx";
import { windowOf } from "./format.ts";

/** A signed-out visitor: sign in (or up) and come back to this page. */
function SignInToTakePart({ contest }: { contest: Contest }) {
  const here = currentPath();
  const what = contest.phase === "over" ? "take part virtually" : "register";
  return (
    <p className="card" data-testid="next-step">
      <Link href={signInHref(here)} className="btn btn-primary btn-sm">
        Sign in to {what}
      </Link>{" "}
      <span className="muted">
        {contest.phase === "upcoming" && `The contest starts ${localTime(contest.startsAt)}. `}
        {contest.phase === "running" && "The contest is running; registered teams see the problems. "}
        No account? <Link href={signUpHref(here)}>Sign up</Link> and you come back here.
      </span>
    </p>
  );
}

/**
 * The one next step of this visitor, or nothing (the jury; a participant whose window has started).
 * @param nowMs the page's clock, ms since the epoch.
 */
export function NextStep({ contest, nowMs, register }: { contest: Contest; nowMs: number; register: ReactNode }) {
  if (contest.role === "anonymous") return <SignInToTakePart contest={contest} />;
  if (contest.role === "public") {
    if (contest.registration === "roster" && contest.phase !== "over") {
      return (
        <p className="card" data-testid="next-step">
          The organisers register the teams of this contest; ask them to add you.
        </p>
      );
    }
    if (contest.phase === "over") return <>{register}</>;
    return (
      <>
        <p className="card" data-testid="next-step">
          {contest.phase === "running"
            ? "The contest is running: register below to see the problems and submit."
            : `Register below; the contest starts ${localTime(contest.startsAt)}.`}
        </p>
        {register}
      </>
    );
  }
  if (contest.role === "participant") {
    const mine = windowOf(contest);
    if (Date.parse(mine.startsAt) <= nowMs) return null;
    const left = countdown(mine.startsAt, nowMs);
    return (
      <p className="card" data-testid="next-step" role="status">
        You are registered. The contest starts <strong>{localTime(mine.startsAt)}</strong>
        {left && ` (${left})`}.
      </p>
    );
  }
  return null;
}

/** The problems list's text while it is empty, for this visitor. */
export function problemsHiddenText(contest: Contest): string {
  if (contest.phase !== "upcoming" && (contest.role === "anonymous" || contest.role === "public")) {
    return contest.role === "anonymous" ? "Sign in and register to see the problems." : "Register to see the problems.";
  }
  return "The problems appear when the contest starts.";
}

/** A contest the server does not show a guest (a course's, or none): sign in and come back here. */
export function HiddenFromGuest() {
  const here = currentPath();
  return (
    <section className="card" data-testid="next-step" aria-labelledby="hidden-contest-title">
      <h1 id="hidden-contest-title" className="page-title">
        Sign in to see this contest
      </h1>
      <p>This contest is not public: it may belong to a course. Sign in with the account you use for the course and you come back here.</p>
      <p>
        <Link href={signInHref(here)} className="btn btn-primary btn-sm">
          Sign in
        </Link>{" "}
        <Link href={signUpHref(here)} className="text-link">
          Create an account
        </Link>
      </p>
    </section>
  );
}
