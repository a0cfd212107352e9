/** problem.yaml's keywords as read: a list, a legacy string of words, and what cannot be a keyword warned about (never an error). */
import { expect, test } from "bun:test";
import { readKeywords, KEYWORDS_MAX } from "./keywords.ts";
import { readYaml } from "./yaml.ts";

const yamlOf = (text: string) => readYaml(new Map([["problem.yaml", new TextEncoder().encode(text)]]), "problem.yaml")!;

test("a list keeps each keyword as written (trimmed); a legacy string splits at white space; none gives []", () => {
  const warnings: string[] = [];
  expect(readKeywords(yamlOf("keywords: [' dynamic programming ', graphs, '']\n"), warnings)).toEqual(["dynamic programming", "graphs"]);
  expect(readKeywords(yamlOf("keywords: dp  greedy\n"), warnings)).toEqual(["dp", "greedy"]);
  expect(readKeywords(yamlOf("name: X\n"), warnings)).toEqual([]);
  expect(warnings).toEqual([]);
});

test("a keyword that is not text, too long, or past the 50th is a warning naming it and its line", () => {
  const warnings: string[] = [];
  const many = Array.from({ length: KEYWORDS_MAX + 1 }, (_, i) => `k${i}`).join(", ");
  expect(readKeywords(yamlOf(`name: X\nkeywords: [42, ${"x".repeat(61)}, ${many}]\n`), warnings)).toHaveLength(KEYWORDS_MAX);
  expect(warnings).toEqual([
    "problem.yaml line 2: keyword 42 is not text: left out",
    `problem.yaml line 2: keyword "${"x".repeat(40)}"… is longer than 60 characters: left out`,
    `problem.yaml line 2: keyword "k${KEYWORDS_MAX}" left out (at most ${KEYWORDS_MAX} are read)`,
  ]);
});
