import "../i18n/testing.ts";
import { expect, test } from "bun:test";
// After testing.ts (see there): the module translates.
const { formatKib, formatMs, verdictName } = await import("./verdicts.ts");

test("verdict names: the spec's badge words for AC/WA, full names for the rest", () => {
  expect(verdictName("AC")).toBe("Accepted");
  expect(verdictName("WA")).toBe("Wrong Answer");
  expect(verdictName("TLE")).toBe("Time Limit Exceeded");
  expect(verdictName("MLE")).toBe("Memory Limit Exceeded");
  expect(verdictName("RE")).toBe("Runtime Error");
  expect(verdictName("CE")).toBe("Compilation Error");
  expect(verdictName("OLE")).toBe("Output Limit Exceeded");
  expect(verdictName("IE")).toBe("Internal Error");
  expect(verdictName("XYZ")).toBe("XYZ");
});

test("times and sizes carry their unit", () => {
  expect(formatMs(0)).toBe("0 ms");
  expect(formatMs(999.4)).toBe("999 ms");
  expect(formatMs(2000)).toBe("2 s");
  expect(formatMs(1234)).toBe("1.23 s");
  expect(formatMs(null)).toBe("—");
  expect(formatKib(512)).toBe("512 KiB");
  expect(formatKib(262144)).toBe("256 MiB");
  expect(formatKib(1536)).toBe("1.5 MiB");
  expect(formatKib(undefined)).toBe("—");
});

test("verdict names and judging phrases follow the interface's language", async () => {
  const { i18n } = await import("@lingui/core");
  const { common } = await import("../i18n/catalog/common/index.ts");
  const { judgingPhrase, testsPassedPhrase } = await import("./judging-phrase.ts");
  await Promise.all([common.load("de"), common.load("ru")]);
  try {
    i18n.activate("de");
    expect(verdictName("AC")).toBe("Akzeptiert");
    expect(verdictName("TLE")).toBe("Zeitlimit überschritten");
    expect(verdictName("XYZ")).toBe("XYZ");
    expect(judgingPhrase({ status: "running", testsDone: 2, testsTotal: 9 })).toBe("Testfall 3 von 9 läuft …");
    i18n.activate("ru");
    expect(testsPassedPhrase(7, 9)).toBe("Пройдено 7 из 9 тестов");
    expect(testsPassedPhrase(1, 21)).toBe("Пройдено 1 из 21 теста");
  } finally {
    i18n.activate("en");
  }
  expect(verdictName("AC")).toBe("Accepted");
});
