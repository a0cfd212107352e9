/**
 * Role rules for a way in: which signed-in identities become site admins or
 * may create courses, written by the operator as one line, e.g.
 * `groups contains "staff"` or `groups contains "faculty" or email endsWith "@cs.example.edu"`.
 *
 * Grammar: clause (` or ` clause)*; clause = NAME OP "VALUE", where NAME is a
 * claim (OpenID), an attribute or `groups` (LDAP), OP is `contains` (a list
 * holds the value, or a text contains it), `=` (equal, or a list holds
 * exactly it) or `endsWith`. Comparison ignores case, as directories do.
 */
export type RuleOp = "contains" | "=" | "endsWith";
export interface RuleClause {
  name: string;
  op: RuleOp;
  value: string;
}
/** Clauses joined by `or`. */
export type Rule = RuleClause[];

const CLAUSE = /^\s*([A-Za-z_][\w.:-]*)\s+(contains|=|endsWith)\s+"([^"]*)"\s*$/;

/**
 * Parses a rule.
 * @throws Error naming what is wrong, e.g. `expected NAME contains "VALUE" in: groups has staff`.
 */
export function parseRule(text: string): Rule {
  const parts = text.split(/\s+or\s+(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  return parts.map((part) => {
    const m = CLAUSE.exec(part);
    if (!m) throw new Error(`expected NAME contains "VALUE" (or =, endsWith; clauses joined by or) in: ${part.trim()}`);
    return { name: m[1]!, op: m[2] as RuleOp, value: m[3]! };
  });
}

/** Values of a claim as lower-cased texts (a list, a single value, or none). */
function valuesOf(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.flatMap(valuesOf);
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return [String(v).toLowerCase()];
  return [];
}

/** Whether the identity's claims (or attributes) satisfy the rule. */
export function matchesRule(rule: Rule, claims: Record<string, unknown>): boolean {
  return rule.some(({ name, op, value }) => {
    const raw = claims[name];
    const values = valuesOf(raw);
    const want = value.toLowerCase();
    if (op === "=") return values.includes(want);
    if (op === "endsWith") return values.some((v) => v.endsWith(want));
    // contains: membership in a list; a substring of a single text.
    return Array.isArray(raw) ? values.includes(want) : values.some((v) => v.includes(want));
  });
}
