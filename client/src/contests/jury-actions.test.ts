/** Why the contest page disables Reveal, Unfreeze and Finalize: the reasons shown beside them. */
import { expect, test } from "bun:test";
import type { Contest } from "./Clarifications.tsx";
import { juryActionReasons } from "./jury-actions.ts";

const base = { phase: "running", mayChange: true, freezesAt: "2026-11-27T10:00:00.000Z", unfrozenAt: null, finalizedAt: null } as unknown as Contest;
const at = (over: Partial<Record<keyof Contest, unknown>>) => ({ ...base, ...over }) as Contest;

test("while the contest runs every action waits for its end", () => {
  const why = juryActionReasons(base);
  expect(why.reveal).toBe("the reveal is possible once the contest is over.");
  expect(why.unfreeze).toBe("unfreezing is possible once the contest is over.");
  expect(why.finalize).toBe("finalizing is possible once the contest is over.");
});

test("once over, an owner may take each action once", () => {
  expect(juryActionReasons(at({ phase: "over" }))).toEqual({ reveal: null, unfreeze: null, finalize: null });
  const done = juryActionReasons(at({ phase: "over", unfrozenAt: "2026-11-27T12:00:00.000Z", finalizedAt: "2026-11-27T12:01:00.000Z" }));
  expect(done).toEqual({ reveal: null, unfreeze: "the scoreboard is unfrozen.", finalize: "the results are final." });
  expect(juryActionReasons(at({ phase: "over", freezesAt: null })).unfreeze).toBe("this contest's scoreboard is never frozen.");
});

test("a jury member who is not an owner (a TA, a granted judge) reveals but neither unfreezes nor finalizes", () => {
  const why = juryActionReasons(at({ phase: "over", mayChange: false }));
  expect(why.reveal).toBeNull();
  expect(why.unfreeze).toBe("only the contest's owners unfreeze the scoreboard.");
  expect(why.finalize).toBe("only the contest's owners finalize the results.");
});
