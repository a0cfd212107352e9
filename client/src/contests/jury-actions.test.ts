/** Why the contest page disables Reveal, Unfreeze and Finalize: the reasons shown beside them, read in English. */
import "../i18n/testing.ts";
import { expect, test } from "bun:test";
import en from "../i18n/catalog/contests/en.json";
import type { ContestsKey } from "../i18n/catalog/contests/index.ts";
import { translate } from "../i18n/index.tsx";
import { defineNamespace } from "../i18n/namespace.ts";
import type { Contest } from "./Clarifications.tsx";
import { juryActionReasons } from "./jury-actions.ts";

// The namespace as catalog/contests/index.ts defines it, English only (import.meta.glob is Vite's).
const contests = defineNamespace("contests", en, {});
const say = (key: ContestsKey | null) => (key === null ? null : translate(contests, key));
const reasons = (c: Contest) => {
  const why = juryActionReasons(c);
  return { reveal: say(why.reveal), unfreeze: say(why.unfreeze), finalize: say(why.finalize) };
};

const base = { phase: "running", mayChange: true, freezesAt: "2026-11-27T10:00:00.000Z", unfrozenAt: null, finalizedAt: null } as unknown as Contest;
const at = (over: Partial<Record<keyof Contest, unknown>>) => ({ ...base, ...over }) as Contest;

test("while the contest runs every action waits for its end", () => {
  const why = reasons(base);
  expect(why.reveal).toBe("Reveal: the reveal is possible once the contest is over.");
  expect(why.unfreeze).toBe("Unfreeze: unfreezing is possible once the contest is over.");
  expect(why.finalize).toBe("Finalize: finalizing is possible once the contest is over.");
});

test("once over, an owner may take each action once", () => {
  expect(reasons(at({ phase: "over" }))).toEqual({ reveal: null, unfreeze: null, finalize: null });
  const done = reasons(at({ phase: "over", unfrozenAt: "2026-11-27T12:00:00.000Z", finalizedAt: "2026-11-27T12:01:00.000Z" }));
  expect(done).toEqual({ reveal: null, unfreeze: "Unfreeze: the scoreboard is unfrozen.", finalize: "Finalize: the results are final." });
  expect(reasons(at({ phase: "over", freezesAt: null })).unfreeze).toBe("Unfreeze: this contest's scoreboard is never frozen.");
});

test("a jury member who is not an owner (a TA, a granted judge) reveals but neither unfreezes nor finalizes", () => {
  const why = reasons(at({ phase: "over", mayChange: false }));
  expect(why.reveal).toBeNull();
  expect(why.unfreeze).toBe("Unfreeze: only the contest's owners unfreeze the scoreboard.");
  expect(why.finalize).toBe("Finalize: only the contest's owners finalize the results.");
});
