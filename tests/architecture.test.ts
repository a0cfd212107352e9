/**
 * The house rules, checked on the import graph of every source file (tests
 * excluded): no import cycle (type-only imports count: a cycle of types is
 * still two modules that cannot be read apart); nothing under isolate/
 * reaches outside it; routers and REST doors hold no database code (domain
 * rules live in their domain's folder); the client bundles only the shared
 * pure modules of the server and reads the router's type.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SOURCE_DIRS = ["src", "isolate", "db", "client/src"];

interface Edge {
  to: string;
  typeOnly: boolean;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "node_modules" && name !== "dist") walk(path, out);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts")) {
      out.push(path);
    }
  }
  return out;
}

/** Static `import ... from`, `export ... from` and side-effect imports; `import type` and `export type` marked type-only. */
export function importsOf(code: string): { spec: string; typeOnly: boolean }[] {
  const found: { spec: string; typeOnly: boolean }[] = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g;
  for (const m of code.matchAll(re)) {
    // `import { type A, type B } from` (braces only, every name a type) is type-only too.
    const braces = /^\s*(?:import|export)\s+\{([^}]*)\}/.exec(m[0])?.[1];
    const names = braces?.split(",").map((s) => s.trim()).filter(Boolean) ?? [];
    const allTypes = names.length > 0 && names.every((s) => s.startsWith("type "));
    found.push({ spec: m[3]!, typeOnly: Boolean(m[2]) || allTypes });
  }
  return found;
}

function buildGraph(): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>();
  for (const dir of SOURCE_DIRS) {
    for (const file of walk(join(ROOT, dir))) {
      const rel = relative(ROOT, file);
      const edges: Edge[] = [];
      for (const { spec, typeOnly } of importsOf(readFileSync(file, "utf8"))) {
        if (!spec.startsWith(".")) continue;
        edges.push({ to: relative(ROOT, resolve(dirname(file), spec)), typeOnly });
      }
      graph.set(rel, edges);
    }
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, Edge[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!graph.has(to)) continue;
      if (!idx.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v)!, idx.get(to)!));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).some((e) => e.to === v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const graph = buildGraph();

/** A database call in source text: `db.insert(`, `ctx.db\n  .update(`, `db.run(`, ... */
const DATABASE_CALL = /\bdb\s*\.\s*(insert|update|delete|run|batch|execute|all|select)\s*\(/g;

describe("architecture", () => {
  // libSQL's embedded client hands its connection to an interactive transaction and opens a new one
  // for everything after it, without db/index.ts' pragmas (busy_timeout, foreign_keys): the next
  // concurrent write fails at once with SQLITE_BUSY. Writes that belong together go in db.batch
  // (docs/decisions/041-no-interactive-transactions.md).
  test("no interactive transaction in the server's code", () => {
    const offenders = walk(join(ROOT, "src"))
      .concat(walk(join(ROOT, "db")))
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .filter((f) => /\.transaction\(/.test(readFileSync(f, "utf8")))
      .map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });

  test("the graph covers the source folders", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.has("src/problems/store.ts")).toBe(true);
    expect(graph.get("src/trpc/routers/problems.ts")!.some((e) => e.to === "src/problems/operations.ts")).toBe(true);
  });

  test("the import finder sees every form, and marks type-only imports", () => {
    const found = importsOf(
      'import { a } from "./a.ts";\nimport type { B } from "./b.ts";\nimport { type C, type D } from "./c.ts";\n' +
        'export { e } from "./e.ts";\nimport "./side.ts";\nimport {\n  f,\n  g,\n} from "./fg.ts";\nimport { type H, i } from "./hi.ts";',
    );
    expect(found).toEqual([
      { spec: "./a.ts", typeOnly: false },
      { spec: "./b.ts", typeOnly: true },
      { spec: "./c.ts", typeOnly: true },
      { spec: "./e.ts", typeOnly: false },
      { spec: "./side.ts", typeOnly: false },
      { spec: "./fg.ts", typeOnly: false },
      { spec: "./hi.ts", typeOnly: false },
    ]);
  });

  test("no import cycle, type-only imports included", () => {
    expect(cycles(graph)).toEqual([]);
  });

  test("the cycle finder finds a cycle when there is one", () => {
    const g = new Map<string, Edge[]>([
      ["a.ts", [{ to: "b.ts", typeOnly: true }]],
      ["b.ts", [{ to: "c.ts", typeOnly: false }]],
      ["c.ts", [{ to: "a.ts", typeOnly: false }]],
      ["d.ts", [{ to: "a.ts", typeOnly: false }]],
    ]);
    expect(cycles(g)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  test("the judge and the sandbox backends are split by job: no file of src/judge/ or isolate/backends/ over 300 lines", () => {
    const long = [...graph.keys()]
      .filter((file) => /^(src\/judge|isolate\/backends)\//.test(file))
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), "utf8").split("\n").length }))
      .filter((f) => f.lines > 300)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  test("nothing under isolate/ imports from outside it", () => {
    const outside = [...graph].flatMap(([file, edges]) =>
      file.startsWith("isolate/") ? edges.filter((e) => !e.to.startsWith("isolate/")).map((e) => `${file} -> ${e.to}`) : [],
    );
    expect(outside).toEqual([]);
  });

  test("every door (src/rest/**, src/trpc/**) holds no database code: no drizzle or schema import, no table write", () => {
    const doors = [...graph.keys()].filter((file) => /^src\/(trpc|rest)\//.test(file));
    expect(doors).toContain("src/rest/judge-hosts.ts");
    expect(doors).toContain("src/trpc/init.ts");
    const offenders: string[] = [];
    for (const file of doors) {
      const code = readFileSync(join(ROOT, file), "utf8");
      for (const { spec } of importsOf(code)) {
        if (spec === "drizzle-orm" || spec.endsWith("db/schema.ts")) offenders.push(`${file} imports ${spec}`);
      }
      for (const m of code.matchAll(DATABASE_CALL)) offenders.push(`${file} calls db.${m[1]}`);
    }
    expect(offenders).toEqual([]);
  });

  test("the door check sees a table write and a drizzle import", () => {
    const code = 'import { eq } from "drizzle-orm";\nawait ctx.db.insert(users).values(x);\nawait db\n  .update(problems)';
    expect(importsOf(code).map((i) => i.spec)).toContain("drizzle-orm");
    expect([...code.matchAll(DATABASE_CALL)].map((m) => m[1])).toEqual(["insert", "update"]);
  });

  test("the client bundles only the shared modules of the server (and reads the router's type)", () => {
    const shared = /^(src\/verdicts\.ts|src\/i18n\/locales\.ts|src\/i18n\/pseudo-text\.ts|src\/contests\/board-delta\.ts|src\/similarity\/threshold\.ts|src\/lib\/return-path\.ts|src\/problems\/limits\.ts|src\/problems\/validator-flags\.ts|isolate\/languages\/[a-z]+\.ts|isolate\/types\.ts)$/;
    const offenders = [...graph].flatMap(([file, edges]) =>
      file.startsWith("client/")
        ? edges.filter((e) => !e.to.startsWith("client/") && !e.typeOnly && !shared.test(e.to)).map((e) => `${file} -> ${e.to}`)
        : [],
    );
    expect(offenders).toEqual([]);
  });

  test("every table has one writing folder: inserts, updates and deletes only from its domain's folder", () => {
    const writers = tableWriters();
    expect(writers.size).toBeGreaterThan(25);
    const offenders: string[] = [];
    for (const [table, places] of writers) {
      const owner = TABLE_OWNERS[table];
      if (!owner) offenders.push(`${table}: no owner listed in TABLE_OWNERS`);
      for (const place of places) if (owner && !place.startsWith(`${owner}/`)) offenders.push(`${table} written from ${place} (its owner is ${owner})`);
    }
    expect(offenders).toEqual([]);
  });

  test("the writer scan sees drizzle writes and raw SQL", () => {
    const seen = writesIn('await db.insert(users).values(x);\nawait db\n  .update(problems)\n  .set({});\nawait db.delete(testCases);\nsql`INSERT INTO judge_finishes (a)`; db.select().from(users)', tableNames());
    expect(seen.sort()).toEqual(["judgeFinishes", "problems", "testCases", "users"]);
  });
});

/**
 * Which folder may write each table (one per table): a domain's tables are
 * written only through its functions, so a rule about a table lives in one
 * place. Reads are anyone's.
 */
const TABLE_OWNERS: Record<string, string> = {
  twoFactorRecoveryCodes: "src/accounts",
  twoFactorTickets: "src/accounts",
  userProblemStatus: "src/problems/bank",
  problemStats: "src/problems/bank",
  progressVersions: "src/problems/bank",
  tags: "src/problems/tags",
  tagSynonyms: "src/problems/tags",
  problemTags: "src/problems/tags",
  users: "src/accounts",
  emailTokens: "src/accounts",
  sessions: "src/auth",
  mailOutbox: "src/mail",
  notifications: "src/notifications",
  notificationPreferences: "src/notifications",
  announcements: "src/notifications",
  passwordResetRequests: "src/accounts",
  passwordResetTokens: "src/accounts",
  problems: "src/problems",
  // revisions('problems') is bumped by triggers on problems and test cases, and by the tag curation (src/problems/tags).
  revisions: "src/problems",
  testCases: "src/problems",
  problemPackages: "src/packages",
  problemAssets: "src/packages",
  judgeHosts: "src/judge-hosts",
  judgeFinishes: "src/judge-hosts",
  submissions: "src/submissions",
  submissionTests: "src/submissions",
  submissionFailures: "src/submissions",
  contactMessages: "src/contact",
  aiReviews: "src/ai",
  aiRequests: "src/ai",
  courses: "src/courses",
  courseMembers: "src/courses",
  courseInvites: "src/courses",
  assignments: "src/courses",
  assignmentProblems: "src/courses",
  extensions: "src/courses",
  lateDaySpends: "src/courses",
  examStarts: "src/courses/exam",
  examAccessLog: "src/courses/exam",
  assignmentScores: "src/courses",
  rubrics: "src/courses/grading",
  rubricItems: "src/courses/grading",
  commentBank: "src/courses/grading",
  submissionReviews: "src/courses/grading",
  regradeRequests: "src/courses/grading",
  assignmentAnalyticsCells: "src/courses/analytics",
  assignmentAnalyticsTests: "src/courses/analytics",
  assignmentAnalyticsBuilt: "src/courses/analytics",
  externalIdentities: "src/sso",
  ssoFlows: "src/sso",
  ltiPlatforms: "src/lti",
  ltiDeployments: "src/lti",
  ltiKeys: "src/lti",
  ltiFlows: "src/lti",
  ltiContexts: "src/lti",
  ltiResourceLinks: "src/lti",
  ltiDeepLinks: "src/lti",
  ltiGradeOutbox: "src/lti",
  contests: "src/contests",
  contestProblems: "src/contests",
  contestTeams: "src/contests",
  contestEntries: "src/contests",
  contestTeamMembers: "src/contests",
  contestClarifications: "src/contests",
  contestEvents: "src/contests",
  contestBalloons: "src/contests",
  contestRoles: "src/contests",
  similarityReports: "src/similarity",
  similarityMarks: "src/similarity",
  submissionPastes: "src/similarity",
};

/** Table export name → SQL name, from db/schema.ts. */
function tableNames(): Map<string, string> {
  const schema = readFileSync(join(ROOT, "db", "schema.ts"), "utf8");
  return new Map([...schema.matchAll(/export const (\w+) = sqliteTable\(\s*"(\w+)"/g)].map((m) => [m[1]!, m[2]!]));
}

/** The tables a source text writes: drizzle's `.insert(t)`, `.update(t)`, `.delete(t)`, and raw INSERT/UPDATE/DELETE. */
function writesIn(code: string, tables: Map<string, string>): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) if (tables.has(m[1]!)) out.add(m[1]!);
  const bySql = new Map([...tables].map(([name, sqlName]) => [sqlName, name]));
  for (const m of code.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)/g)) if (bySql.has(m[1]!)) out.add(bySql.get(m[1]!)!);
  return [...out];
}

/** Every table written by the server's source files (tests excluded), and from which files. */
function tableWriters(): Map<string, Set<string>> {
  const tables = tableNames();
  const writers = new Map<string, Set<string>>();
  for (const file of graph.keys()) {
    if (!file.startsWith("src/")) continue;
    for (const table of writesIn(readFileSync(join(ROOT, file), "utf8"), tables)) {
      if (!writers.has(table)) writers.set(table, new Set());
      writers.get(table)!.add(file);
    }
  }
  return writers;
}
