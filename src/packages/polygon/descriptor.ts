/**
 * A Codeforces Polygon package's `problem.xml` (../shared/polygon.md §1.2),
 * parsed with fast-xml-parser into the parts this judge reads: names,
 * statements, the `tests` testset (limits, path patterns, tests, groups),
 * `judging`'s attributes, resources and executables, and the assets
 * (checker, interactor, validators, solutions). Errors name problem.xml, the
 * element and, for a document that is not XML, the line.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { PackageError, text, type PackageFiles } from "../files.ts";

export const DESCRIPTOR = "problem.xml";

/** Elements that may repeat: always read as lists. */
const LISTS = new Set(["name", "statement", "testset", "test", "group", "dependency", "file", "executable", "solution", "validator", "property", "tag", "tutorial"]);

/** An element: attributes as strings, children by name. */
export type XmlNode = { [key: string]: string | XmlNode | XmlNode[] | undefined };

export interface PolygonTest {
  /** 1-based, as Polygon numbers tests. */
  index: number;
  method: string;
  sample: boolean;
  group: string | null;
  points: number | null;
  cmd: string | null;
}

export interface PolygonGroup {
  name: string;
  points: number | null;
  pointsPolicy: "complete-group" | "each-test";
  feedbackPolicy: string | null;
  dependencies: string[];
}

export interface PolygonTestset {
  timeLimitMs: number;
  memoryLimitBytes: number;
  inputPattern: string;
  answerPattern: string;
  tests: PolygonTest[];
  groups: PolygonGroup[];
}

/** A program of the package: its source file and Polygon's source type (`cpp.g++17`, `python.3`, ...). */
export interface PolygonSource {
  path: string;
  type: string;
}

export interface PolygonDescriptor {
  shortName: string;
  /** Problem names by Polygon language name (`english`, `russian`, ...). */
  names: Record<string, string>;
  /** `<statement>` elements: language, path, type. */
  statements: { language: string; path: string; type: string }[];
  inputFile: string;
  outputFile: string;
  pointsAsPercent: boolean;
  tests: PolygonTestset;
  /** Names of the other testsets (pretests, ...): not judged here. */
  otherTestsets: string[];
  /** `<files><resources>` paths and types. */
  resources: PolygonSource[];
  /** `<files><executables>` sources (generators, validators, checkers). */
  executables: PolygonSource[];
  /** `<files><executables>` given only as a `<binary>` (a Windows `.exe`, no source): paths of the binaries. */
  binaries: string[];
  checker: { name: string | null; type: string; source: PolygonSource; hasTests: boolean } | null;
  interactor: PolygonSource | null;
  validators: PolygonSource[];
  solutions: { tag: string; source: PolygonSource }[];
  /** `<tags><tag value>` of newer descriptors. */
  tags: string[];
  hasStresses: boolean;
}

const list = (v: unknown): XmlNode[] => (Array.isArray(v) ? (v as XmlNode[]) : v && typeof v === "object" ? [v as XmlNode] : []);
const node = (v: unknown): XmlNode | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as XmlNode) : null);
const attr = (n: XmlNode | null, key: string): string | null => (n && typeof n[key] === "string" ? (n[key] as string) : null);

/** A required attribute. @throws PackageError naming the element and the attribute. */
function need(n: XmlNode | null, key: string, where: string): string {
  const v = attr(n, key);
  if (v === null || v.trim() === "") throw new PackageError(DESCRIPTOR, `${where}: the attribute ${key} is missing`);
  return v.trim();
}

function sourceOf(n: XmlNode | null, where: string): PolygonSource {
  const s = node(n?.source);
  if (!s) throw new PackageError(DESCRIPTOR, `${where}: no <source> element`);
  return { path: need(s, "path", `${where}/source`), type: attr(s, "type") ?? "" };
}

/** A positive whole number from an element's text. @throws PackageError naming the element. */
function positiveInt(v: unknown, where: string): number {
  const s = typeof v === "string" ? v.trim() : "";
  const n = Number(s);
  if (!/^\d+$/.test(s) || n <= 0) throw new PackageError(DESCRIPTOR, `${where} must be a positive whole number (found ${JSON.stringify(s.slice(0, 40))})`);
  return n;
}

function points(v: string | null, where: string): number | null {
  if (v === null || v.trim() === "") return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new PackageError(DESCRIPTOR, `${where}: points ${JSON.stringify(v.slice(0, 40))} is not a number of points`);
  return n;
}

function readTestset(ts: XmlNode): PolygonTestset {
  const where = `judging/testset[name=${attr(ts, "name")}]`;
  const tests = list(node(ts.tests)?.test).map((t, i): PolygonTest => ({
    index: i + 1,
    method: attr(t, "method") ?? "manual",
    sample: attr(t, "sample") === "true",
    group: attr(t, "group")?.trim() || null,
    points: points(attr(t, "points"), `${where}/tests/test ${i + 1}`),
    cmd: attr(t, "cmd"),
  }));
  const count = ts["test-count"];
  if (count !== undefined && positiveInt(count, `${where}/test-count`) !== tests.length) {
    throw new PackageError(DESCRIPTOR, `${where}/test-count says ${String(count).trim()}, but ${tests.length} <test> elements are listed`);
  }
  const groups = list(node(ts.groups)?.group).map((g, i): PolygonGroup => {
    const name = need(g, "name", `${where}/groups/group ${i + 1}`);
    const policy = attr(g, "points-policy") ?? "complete-group";
    if (policy !== "complete-group" && policy !== "each-test") throw new PackageError(DESCRIPTOR, `${where}/groups/group ${name}: points-policy ${JSON.stringify(policy)} is neither complete-group nor each-test`);
    return {
      name,
      points: points(attr(g, "points"), `${where}/groups/group ${name}`),
      pointsPolicy: policy,
      feedbackPolicy: attr(g, "feedback-policy"),
      dependencies: list(node(g.dependencies)?.dependency).map((d) => need(d, "group", `${where}/groups/group ${name}/dependencies/dependency`)),
    };
  });
  return {
    timeLimitMs: positiveInt(ts["time-limit"], `${where}/time-limit`),
    memoryLimitBytes: positiveInt(ts["memory-limit"], `${where}/memory-limit`),
    inputPattern: typeof ts["input-path-pattern"] === "string" ? ts["input-path-pattern"].trim() : "tests/%02d",
    answerPattern: typeof ts["answer-path-pattern"] === "string" ? ts["answer-path-pattern"].trim() : "tests/%02d.a",
    tests,
    groups,
  };
}

/** Whether the package is a Polygon package: problem.xml at its root (p2d, VNOI and CMS detect it so). */
export function isPolygonPackage(files: PackageFiles): boolean {
  return files.has(DESCRIPTOR) && !files.has("problem.yaml");
}

/**
 * Parses problem.xml.
 * @throws PackageError naming problem.xml (and the line) when it is not XML, or the element that is missing or wrong.
 */
export function readDescriptor(files: PackageFiles): PolygonDescriptor {
  const xml = text(files, DESCRIPTOR);
  if (xml === null) throw new PackageError(DESCRIPTOR, "missing");
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new PackageError(DESCRIPTOR, `not well-formed XML: ${valid.err.msg}`, valid.err.line);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseAttributeValue: false,
    parseTagValue: false,
    // Entities other than XML's own are never expanded (no DOCTYPE tricks).
    processEntities: true,
    isArray: (name, _jpath, _leaf, isAttribute) => !isAttribute && LISTS.has(name),
  });
  const root = node((parser.parse(xml) as XmlNode).problem);
  if (!root) throw new PackageError(DESCRIPTOR, "the root element is not <problem>");
  const judging = node(root.judging);
  if (!judging) throw new PackageError(DESCRIPTOR, "no <judging> element");
  const testsets = list(judging.testset);
  const main = testsets.find((t) => attr(t, "name") === "tests");
  if (!main) throw new PackageError(DESCRIPTOR, 'judging: no <testset name="tests">');
  const assets = node(root.assets);
  const checkerNode = node(assets?.checker);
  const filesNode = node(root.files);
  const fileList = (n: XmlNode | null, key: string) => list(n?.[key]);
  return {
    shortName: attr(root, "short-name") ?? "",
    names: Object.fromEntries(list(node(root.names)?.name).map((n) => [need(n, "language", "names/name"), attr(n, "value") ?? ""])),
    statements: list(node(root.statements)?.statement).map((s) => ({ language: need(s, "language", "statements/statement"), path: need(s, "path", "statements/statement"), type: attr(s, "type") ?? "" })),
    inputFile: attr(judging, "input-file") ?? "",
    outputFile: attr(judging, "output-file") ?? "",
    pointsAsPercent: attr(judging, "treat-points-from-checker-as-percent") === "true",
    tests: readTestset(main),
    otherTestsets: testsets.filter((t) => t !== main).map((t) => attr(t, "name") ?? "(unnamed)"),
    resources: fileList(node(filesNode?.resources), "file").map((f) => ({ path: need(f, "path", "files/resources/file"), type: attr(f, "type") ?? "" })),
    executables: fileList(node(filesNode?.executables), "executable")
      .filter((e) => node(e.source))
      .map((e) => sourceOf(e, "files/executables/executable")),
    binaries: fileList(node(filesNode?.executables), "executable")
      .filter((e) => !node(e.source))
      .map((e) => attr(node(e.binary), "path"))
      .filter((p): p is string => !!p),
    checker: checkerNode
      ? { name: attr(checkerNode, "name"), type: attr(checkerNode, "type") ?? "testlib", source: sourceOf(checkerNode, "assets/checker"), hasTests: list(checkerNode.testset).length > 0 }
      : null,
    interactor: node(assets?.interactor) ? sourceOf(node(assets!.interactor), "assets/interactor") : null,
    validators: list(node(assets?.validators)?.validator).map((v) => sourceOf(v, "assets/validators/validator")),
    solutions: list(node(assets?.solutions)?.solution).map((s) => ({ tag: need(s, "tag", "assets/solutions/solution"), source: sourceOf(s, "assets/solutions/solution") })),
    tags: list(node(root.tags)?.tag).map((t) => attr(t, "value") ?? "").filter(Boolean),
    hasStresses: list(node(root.stresses)?.stress).length > 0 || (typeof root.stresses === "object" && Object.keys(root.stresses as object).length > 0),
  };
}

/**
 * A test's path from a testset's pattern (`tests/%02d` → `tests/07`), as
 * Polygon's printf-style patterns write it.
 */
export function testPath(pattern: string, index: number): string {
  return pattern.replace(/%(0?)(\d*)d/, (_m, zero: string, width: string) => String(index).padStart(Number(width || 0), zero ? "0" : " "));
}
