/** The languages a server offers: LANGUAGES, less what is not installed where this process judges. */
import { describe, expect, test } from "bun:test";
import { offeredLanguages, requireOffered } from "./languages.ts";
import { loadConfig } from "../config.ts";
import { LANGUAGE_IDS } from "../../isolate/languages/index.ts";

const without = (...paths: string[]) => (p: string) => !paths.includes(p);

describe("offered languages", () => {
  test("unset LANGUAGES: every language whose tools are here; a missing one is left out, naming its package", () => {
    expect(offeredLanguages({ LANGUAGES: undefined, JUDGE_IN_PROCESS: true }, () => true).ids).toEqual([...LANGUAGE_IDS]);
    const o = offeredLanguages({ LANGUAGES: undefined, JUDGE_IN_PROCESS: true }, without("/usr/bin/go", "/usr/bin/rustc"));
    expect(o.ids).toEqual(["cpp", "c", "java", "py", "pypy", "js"]);
    expect(o.left).toEqual([
      { id: "go", why: "/usr/bin/go missing (apt install golang-go)" },
      { id: "rust", why: "/usr/bin/rustc missing (apt install rustc-web)" },
    ]);
  });

  test("LANGUAGES names them, in the registry's order; named but not installed is not offered either", () => {
    expect(offeredLanguages({ LANGUAGES: "py,cpp", JUDGE_IN_PROCESS: true }, () => true).ids).toEqual(["cpp", "py"]);
    const o = offeredLanguages({ LANGUAGES: "py,pypy", JUDGE_IN_PROCESS: true }, without("/usr/bin/pypy3"));
    expect(o.ids).toEqual(["py"]);
    expect(o.left.map((l) => l.id)).toEqual(["pypy"]);
  });

  test("a server that only hands jobs to judge hosts offers what it names, installed here or not", () => {
    expect(offeredLanguages({ LANGUAGES: "go,rust", JUDGE_IN_PROCESS: false }, () => false).ids).toEqual(["go", "rust"]);
  });

  test("refusal names the language and what is offered; LANGUAGES with an unknown id stops the configuration", () => {
    expect(() => requireOffered(["cpp", "py"], "go")).toThrow("Go is not offered on this server; offered: C++, Python");
    expect(() => requireOffered(["cpp", "py"], "py")).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: "test", LANGUAGES: "cpp,cobol" })).toThrow("unknown language cobol");
    expect(loadConfig({ NODE_ENV: "test", LANGUAGES: "cpp,go" }).LANGUAGES).toBe("cpp,go");
  });
});
