/**
 * axe-core in the browser (@axe-core/playwright) with the WCAG 2.1 AA rule
 * set: the tags wcag2a, wcag2aa, wcag21a and wcag21aa. A violation is
 * reported with its rule, impact, help text and the CSS selectors of every
 * element it was found on, so a failing test names what to fix.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";

/** The rule tags run: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_21_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export interface AxeFinding {
  rule: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the offending elements (an iframe's element as "frame >> element"). */
  targets: string[];
  /** axe's summary of the first element's failure (e.g. the contrast measured). */
  summary: string;
}

/**
 * Runs axe on the page as it is now.
 * @returns the violations (empty when none), incomplete results left out.
 */
export async function axeViolations(page: Page, exclude: string[] = []): Promise<AxeFinding[]> {
  // resultTypes: only violations are reported in full (passes and incomplete results keep one node each), which makes a run faster; the rules run are the same.
  // (options() replaces what withTags() set, so the tags are given here.)
  let builder = new AxeBuilder({ page: page as never }).options({ runOnly: { type: "tag", values: WCAG_21_AA_TAGS }, resultTypes: ["violations"] });
  for (const selector of exclude) builder = builder.exclude(selector);
  const result = await builder.analyze();
  return result.violations.map((v) => ({
    rule: v.id,
    impact: v.impact ?? null,
    help: v.help,
    targets: v.nodes.map((n) => n.target.map(String).join(" >> ")),
    summary: (v.nodes[0]?.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 300),
  }));
}

/** One line per violation: `where: rule (impact): help — targets — summary`. */
export function formatFindings(where: string, findings: AxeFinding[]): string[] {
  return findings.map((f) => `${where}: ${f.rule} (${f.impact}): ${f.help} — ${f.targets.join(", ")} — ${f.summary}`);
}
