/**
 * JSON schemas (draft 2020-12) of the ICPC Contest API 2023-06 objects, written
 * here from the specification's text (github.com/icpc/ccs-specs,
 * Contest_API.md at 2023-06: "JSON property types", each endpoint's property
 * table, "Notification format", "Scoreboard format", the error body). The
 * spec's own `json-schema/` folder cannot be installed here (no npm package,
 * no network); these follow the same rules, one schema per endpoint, and are
 * strict where the spec is: required properties, types, nullability, ID/TIME/
 * RELTIME formats, and the spec's "required iff" conditions. Objects allow no
 * properties the spec does not define (the `access` endpoint lists ours).
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

const nullable = (s: object) => ({ anyOf: [s, { type: "null" }] });

/** ID: `[a-zA-Z0-9_.-]`, at most 36, not starting with `-` or `.`, not ending with `.`. */
const id = { type: "string", pattern: "^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,34}[A-Za-z0-9_-])?$" };
/** TIME: `yyyy-mm-ddThh:mm:ss(.uuu)?[+-]zz(:mm)?` or `Z`. */
const time = { type: "string", pattern: "^[12][0-9]{3}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9](\\.[0-9]{3})?([+-][0-1][0-9](:[0-5][0-9])?|Z)$" };
/** RELTIME: `(-)?(h)*h:mm:ss(.uuu)?`. */
const reltime = { type: "string", pattern: "^-?[0-9]+:[0-5][0-9]:[0-5][0-9](\\.[0-9]{3})?$" };
const file = {
  type: "object",
  required: ["filename", "mime"],
  properties: {
    href: nullable({ type: "string" }),
    filename: { type: "string", pattern: "^[^/]+$" },
    hash: nullable({ type: "string" }),
    mime: { type: "string" },
    width: nullable({ type: "integer", minimum: 1 }),
    height: nullable({ type: "integer", minimum: 1 }),
  },
  additionalProperties: false,
};

const obj = (required: string[], properties: Record<string, object>, extra: object = {}) => ({ type: "object", required, properties, additionalProperties: false, ...extra });

const api = obj(["version", "version_url"], {
  version: { type: "string", pattern: "^([0-9]{4}-[0-9]{2}(-draft)?|draft)$" },
  version_url: { type: "string", pattern: "^https?://" },
  name: nullable({ type: "string" }),
  logo: nullable({ type: "array", items: file }),
});

const contest = obj(
  ["id", "name", "duration", "scoreboard_type"],
  {
    id,
    name: { type: "string", minLength: 1 },
    formal_name: nullable({ type: "string" }),
    start_time: nullable(time),
    countdown_pause_time: nullable(reltime),
    duration: reltime,
    scoreboard_freeze_duration: nullable(reltime),
    scoreboard_type: { enum: ["pass-fail", "score"] },
    penalty_time: { type: "integer", minimum: 0 },
    banner: nullable({ type: "array", items: file }),
    logo: nullable({ type: "array", items: file }),
  },
  {
    allOf: [
      // "At no time may both start_time and countdown_pause_time be non-null."
      { not: { required: ["start_time", "countdown_pause_time"], properties: { start_time: { type: "string" }, countdown_pause_time: { type: "string" } } } },
      // penalty_time: "Only relevant if scoreboard_type is pass-fail" (required there).
      { if: { properties: { scoreboard_type: { const: "pass-fail" } } }, then: { required: ["penalty_time"] } },
    ],
  },
);

const judgementType = obj(["id", "name", "penalty", "solved"], { id: { type: "string", pattern: "^[A-Z]{2,3}$" }, name: { type: "string" }, penalty: { type: "boolean" }, solved: { type: "boolean" } });

const language = obj(
  ["id", "name", "entry_point_required", "extensions"],
  { id, name: { type: "string" }, entry_point_required: { type: "boolean" }, entry_point_name: nullable({ type: "string" }), extensions: { type: "array", items: { type: "string" }, minItems: 1 } },
  { if: { properties: { entry_point_required: { const: true } } }, then: { required: ["entry_point_name"], properties: { entry_point_name: { type: "string" } } } },
);

const problem = obj(["id", "label", "name", "ordinal", "time_limit", "test_data_count"], {
  id,
  uuid: nullable({ type: "string" }),
  label: { type: "string", minLength: 1 },
  name: { type: "string" },
  ordinal: { type: "integer" },
  rgb: nullable({ type: "string", pattern: "^#[0-9A-Fa-f]{3}([0-9A-Fa-f]{3})?$" }),
  color: nullable({ type: "string" }),
  time_limit: { type: "number", exclusiveMinimum: 0 },
  test_data_count: { type: "integer", minimum: 0 },
  max_score: { type: "number" },
  package: nullable({ type: "array", items: file }),
  statement: nullable({ type: "array", items: file }),
});

const group = obj(["id", "name"], { id, icpc_id: nullable({ type: "string" }), name: { type: "string" }, type: nullable({ type: "string" }) });

const organization = obj(["id", "name"], { id, icpc_id: nullable({ type: "string" }), name: { type: "string" }, formal_name: nullable({ type: "string" }), country: nullable({ type: "string", pattern: "^[A-Z]{3}$" }) });

const team = obj(["id", "name"], {
  id,
  icpc_id: nullable({ type: "string" }),
  name: { type: "string", minLength: 1 },
  display_name: nullable({ type: "string" }),
  organization_id: nullable(id),
  group_ids: nullable({ type: "array", items: id }),
  hidden: nullable({ type: "boolean" }),
});

const state = obj(["started", "frozen", "ended", "thawed", "finalized", "end_of_updates"], {
  started: nullable(time),
  frozen: nullable(time),
  ended: nullable(time),
  thawed: nullable(time),
  finalized: nullable(time),
  end_of_updates: nullable(time),
});

const submission = obj(["id", "language_id", "problem_id", "team_id", "time", "contest_time"], {
  id,
  language_id: id,
  problem_id: id,
  team_id: id,
  time,
  contest_time: reltime,
  entry_point: nullable({ type: "string" }),
  files: { type: "array", items: { ...file, properties: { ...file.properties, mime: { const: "application/zip" } } }, minItems: 1, maxItems: 1 },
  reaction: nullable({ type: "array", items: file }),
});

const judgement = obj(
  ["id", "submission_id", "start_time", "start_contest_time"],
  {
    id,
    submission_id: id,
    judgement_type_id: nullable(id),
    score: { type: "number" },
    start_time: time,
    start_contest_time: reltime,
    end_time: nullable(time),
    end_contest_time: nullable(reltime),
    max_run_time: nullable({ type: "number", minimum: 0 }),
  },
  // end_time and end_contest_time: "Required iff judgement_type_id is present".
  { if: { required: ["judgement_type_id"], properties: { judgement_type_id: { type: "string" } } }, then: { required: ["end_time", "end_contest_time"], properties: { end_time: time, end_contest_time: reltime } } },
);

const run = obj(["id", "judgement_id", "ordinal", "judgement_type_id", "time", "contest_time", "run_time"], {
  id,
  judgement_id: id,
  ordinal: { type: "integer", minimum: 1 },
  judgement_type_id: id,
  time,
  contest_time: reltime,
  run_time: { type: "number", minimum: 0 },
});

const clarification = obj(
  ["id", "text", "time", "contest_time"],
  { id, from_team_id: nullable(id), to_team_id: nullable(id), reply_to_id: nullable(id), problem_id: nullable(id), text: { type: "string" }, time, contest_time: reltime },
  // "at least one of from_team_id and to_team_id has to be null".
  { not: { required: ["from_team_id", "to_team_id"], properties: { from_team_id: { type: "string" }, to_team_id: { type: "string" } } } },
);

const award = obj(["id", "citation", "team_ids"], { id, citation: { type: "string" }, team_ids: nullable({ type: "array", items: id }) });

const account = obj(
  ["id", "username", "type"],
  { id, username: { type: "string" }, password: nullable({ type: "string" }), type: { type: "string" }, ip: nullable({ type: "string" }), team_id: nullable(id), person_id: nullable(id) },
  { if: { properties: { type: { const: "team" } } }, then: { required: ["team_id"], properties: { team_id: id } } },
);

const access = obj(["capabilities", "endpoints"], {
  capabilities: { type: "array", items: { type: "string" } },
  endpoints: { type: "array", items: obj(["type", "properties"], { type: { type: "string" }, properties: { type: "array", items: { type: "string" }, minItems: 1 } }) },
});

const problemData = obj(
  ["problem_id", "num_judged", "num_pending"],
  { problem_id: id, num_judged: { type: "integer", minimum: 0 }, num_pending: { type: "integer", minimum: 0 }, solved: { type: "boolean" }, score: { type: "number" }, time: { type: "integer", minimum: 0 } },
  // time: "Required iff solved=true or score>0".
  {
    allOf: [
      { if: { required: ["solved"], properties: { solved: { const: true } } }, then: { required: ["time"] } },
      { if: { required: ["score"], properties: { score: { exclusiveMinimum: 0 } } }, then: { required: ["time"] } },
      { if: { not: { anyOf: [{ required: ["solved"], properties: { solved: { const: true } } }, { required: ["score"], properties: { score: { exclusiveMinimum: 0 } } }] } }, then: { not: { required: ["time"] } } },
    ],
  },
);

const scoreboard = obj(["time", "contest_time", "state", "rows"], {
  time,
  contest_time: reltime,
  state,
  rows: {
    type: "array",
    items: obj(["rank", "team_id", "score"], {
      rank: { type: "integer", minimum: 1 },
      team_id: id,
      score: obj([], { num_solved: { type: "integer", minimum: 0 }, total_time: { type: "integer", minimum: 0 }, score: { type: "number" }, time: { type: "integer" } }, {
        anyOf: [{ required: ["num_solved", "total_time"] }, { required: ["score"] }],
      }),
      problems: nullable({ type: "array", items: problemData }),
    }),
  },
});

const error = obj(["code", "message"], { code: { type: "integer", minimum: 400, maximum: 599 }, message: { type: "string" } });

/** The object schema of each event type (and endpoint). */
export const OBJECT_SCHEMAS = {
  contest,
  "judgement-types": judgementType,
  languages: language,
  problems: problem,
  groups: group,
  organizations: organization,
  teams: team,
  accounts: account,
  state,
  submissions: submission,
  judgements: judgement,
  runs: run,
  clarifications: clarification,
  awards: award,
} as const;

export type EventType = keyof typeof OBJECT_SCHEMAS;

/** One notification of the NDJSON feed: `{type, id, data, token}`, `data` the type's object, its array (a whole collection), or null (a deletion). */
const event = {
  type: "object",
  required: ["type", "data"],
  properties: { type: { enum: Object.keys(OBJECT_SCHEMAS) }, id: nullable(id), data: { type: ["object", "array", "null"] }, token: nullable({ type: "string" }) },
  additionalProperties: false,
  allOf: Object.entries(OBJECT_SCHEMAS).map(([type, schema]) => ({
    if: { properties: { type: { const: type } } },
    then:
      type === "contest" || type === "state"
        ? { properties: { id: { type: "null" }, data: schema } }
        : { properties: { data: { anyOf: [schema, { type: "null" }, { type: "array", items: schema }] } } },
  })),
};

const list = (schema: object) => ({ type: "array", items: schema });

const ajv = new Ajv2020({ allErrors: true, strict: false });

/** Compiled validators: one per endpoint shape and the event. */
export const validators: Record<string, ValidateFunction> = {
  api: ajv.compile(api),
  contests: ajv.compile(list(contest)),
  contest: ajv.compile(contest),
  access: ajv.compile(access),
  account: ajv.compile(account),
  state: ajv.compile(state),
  scoreboard: ajv.compile(scoreboard),
  event: ajv.compile(event),
  error: ajv.compile(error),
  ...Object.fromEntries(Object.entries(OBJECT_SCHEMAS).flatMap(([type, schema]) => [[`${type}[]`, ajv.compile(list(schema))], [`${type}/id`, ajv.compile(schema)]])),
};

/** The validator's errors as one line, for a failed expectation. */
export function explain(name: string, value: unknown): string {
  const v = validators[name];
  if (!v) throw new Error(`no schema ${name}`);
  return v(value) ? "valid" : `${name}: ${ajv.errorsText(v.errors)}`;
}
