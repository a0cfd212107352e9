import "../i18n/testing.ts";
import { expect, test } from "bun:test";
// After testing.ts (see there): the module translates.
const { judgingPhrase, testsPassedPhrase } = await import("./judging-phrase.ts");

test("one phrase while judging, with the count in it", () => {
  expect(judgingPhrase({ status: "queued", testsDone: 0, testsTotal: 0 })).toBe("Queued...");
  expect(judgingPhrase({ status: "queued", testsDone: 0, testsTotal: 0, ahead: 2 })).toBe("Queued (2 ahead)...");
  expect(judgingPhrase({ status: "compiling", testsDone: 0, testsTotal: 9 })).toBe("Compiling...");
  expect(judgingPhrase({ status: "running", testsDone: 2, testsTotal: 9 })).toBe("Running test 3 of 9...");
  expect(judgingPhrase({ status: "running", testsDone: 9, testsTotal: 9 })).toBe("Running test 9 of 9...");
  expect(judgingPhrase({ status: "running", testsDone: 0, testsTotal: null })).toBe("Running...");
  expect(judgingPhrase({ status: "done", testsDone: 9, testsTotal: 9 })).toBe("Judged");
});

test("once judged, passed of all, and what never ran", () => {
  expect(testsPassedPhrase(9, 9)).toBe("9 of 9 tests passed");
  expect(testsPassedPhrase(7, 9, 9)).toBe("7 of 9 tests passed");
  expect(testsPassedPhrase(0, 9, 1)).toBe("0 of 9 tests passed (8 not run after the first failure)");
  expect(testsPassedPhrase(1, 1)).toBe("1 of 1 test passed");
  expect(testsPassedPhrase(0, null)).toBe("");
  expect(testsPassedPhrase(0, 0)).toBe("");
  // Never "judged" beside "passed".
  expect(testsPassedPhrase(0, 9, 1)).not.toContain("judged");
});
