/**
 * The ICPC Contest API's own JSON schemas (draft 2020-12), as the
 * specification's checker uses them: the `json-schema/` folders of
 * github.com/icpc/ccs-specs at the releases 2023-06 and 2026-01, vendored
 * outside the repository in `../shared/vendor/ccs-specs/<release>/json-schema/`
 * (see its README.md for source and commit). Nothing here is written from
 * the spec's text: every endpoint is validated against the file the checker
 * (`check-api.sh`) would use for it.
 *
 * Like the checker without `-p`, `"additionalProperties": false` is inserted
 * on the line before each `ANCHOR_TO_INSERT_REQUIRE_STRICT_PROPERTIES`
 * (`sed -i '/ANCHOR.../i "additionalProperties": false,'`), so an object may
 * carry no property its release does not define. Collections may be empty
 * (the checker's `-n` is off by default).
 *
 * ajv options: `strict: false` because the schemas keep definitions as
 * unknown top-level keywords (`common.json#/abstime`) and one
 * (2026-01 scoreboard) nests a property name where a keyword belongs, which
 * the checker's validator also ignores; `multipleOfPrecision` because JSON
 * numbers are decimals and the checker's validator tests `multipleOf: 0.001`
 * exactly, where binary floating point would refuse 0.029.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

export const RELEASES = ["2023-06", "2026-01"] as const;
export type Release = (typeof RELEASES)[number];

/** Where the vendored schemas are: `../shared/vendor/ccs-specs` from the repository's root. */
export const SPECS_DIR = resolve(import.meta.dir, "../../../shared/vendor/ccs-specs");

const STRICT_ANCHOR = "ANCHOR_TO_INSERT_REQUIRE_STRICT_PROPERTIES";

/** The schema file of each event type's single object (the feed's `type` → `<file>.json`). */
export const OBJECT_SCHEMA_OF: Record<string, string> = {
  contest: "contest",
  "judgement-types": "judgement-type",
  languages: "language",
  problems: "problem",
  groups: "group",
  organizations: "organization",
  persons: "person",
  accounts: "account",
  teams: "team",
  state: "state",
  submissions: "submission",
  judgements: "judgement",
  runs: "run",
  clarifications: "clarification",
  awards: "award",
  commentary: "commentary",
};

/** The event types this server sends (no persons, commentary or accounts in its feed). */
export const SERVED_EVENT_TYPES = ["contest", "state", "judgement-types", "languages", "problems", "organizations", "teams", "submissions", "judgements", "runs", "clarifications", "awards"] as const;

/** One release's schemas, compiled. */
export interface Spec {
  release: Release;
  /** Validates `value` against `<name>.json` ("valid", or the errors as one line). */
  explain(name: string, value: unknown): string;
  /** Validates one event line: the event schema, then its `data` against its type's own object (or collection) schema. */
  explainEvent(line: unknown): string;
}

/** The folder of a release's schemas, or null when `../shared` is absent (the tests then skip, saying so). */
export function schemaDir(release: Release): string | null {
  const dir = join(SPECS_DIR, release, "json-schema");
  return existsSync(join(dir, "common.json")) ? dir : null;
}

/** A schema file's text with the checker's strict-properties insertion. */
function strictText(text: string): string {
  return text
    .split("\n")
    .flatMap((line) => (line.includes(STRICT_ANCHOR) ? ['\t\t"additionalProperties": false,', line] : [line]))
    .join("\n");
}

/** Loads and compiles a release's schemas. @throws Error when the folder is absent (check `schemaDir` first). */
export function loadSpec(release: Release): Spec {
  const dir = schemaDir(release);
  if (!dir) throw new Error(`no ccs-specs ${release} schemas under ${SPECS_DIR}`);
  const ajv = new Ajv2020({ allErrors: true, strict: false, multipleOfPrecision: 9 });
  const ids = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const schema = JSON.parse(strictText(readFileSync(join(dir, file), "utf8"))) as { $id: string };
    ajv.addSchema(schema);
    ids.set(file.replace(/\.json$/, ""), schema.$id);
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (name: string): ValidateFunction => {
    let v = compiled.get(name);
    if (!v) {
      const id = ids.get(name);
      if (!id) throw new Error(`ccs-specs ${release} has no ${name}.json`);
      v = ajv.getSchema(id)!;
      compiled.set(name, v);
    }
    return v;
  };
  const explain = (name: string, value: unknown): string => {
    const v = validator(name);
    return v(value) ? "valid" : `${release} ${name}.json: ${ajv.errorsText(v.errors, { separator: "; " })} in ${JSON.stringify(value).slice(0, 600)}`;
  };
  return {
    release,
    explain,
    explainEvent(line) {
      const base = explain("event-feed", line);
      if (base !== "valid") return base;
      const { type, data } = line as { type: string; data: unknown };
      const single = OBJECT_SCHEMA_OF[type];
      if (!single || data === null) return "valid";
      if (!Array.isArray(data)) return explain(single, data);
      return explain(type === "commentary" ? "commentaries" : type, data);
    },
  };
}
