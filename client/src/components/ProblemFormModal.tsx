/**
 * Create/Edit problem modal: all statement fields (six required; the sample
 * input may be empty, for problems without input), difficulty, the judge's
 * time limit, memory limit and checker (with the Kattis default validator's
 * options in plain words when it is chosen), and the
 * topic tags (../problems/TagPicker.tsx), and the
 * repeatable hidden test cases (one empty case to start, + Add Test Case,
 * Remove). Native <dialog> gives focus trapping and Escape (= Cancel).
 */
import { Checkbox, FileButton, NumberField, Select, TextArea, TextField } from "../kit/index.ts";
import { useEffect, useRef, type FormEvent } from "react";
import { GroupsEditor, type GroupFormValues } from "../problems/GroupsEditor.tsx";
import { TagPicker } from "../problems/TagPicker.tsx";
import { CHECKERS, DEFAULT_CHECKER, DIFFICULTIES, PROBLEM_LIMITS, type Checker, type Difficulty, type PythonImplementation } from "../lib/types.ts";
import { parseValidatorFlags } from "../../../src/problems/validator-flags.ts";
import { Spinner } from "./Loading.tsx";
import { T, useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";

export interface ProblemFormValues {
  title: string;
  description: string;
  inputFormat: string;
  outputFormat: string;
  constraints: string;
  sampleInput: string;
  sampleOutput: string;
  difficulty: Difficulty;
  /** Per-test CPU time limit, milliseconds. */
  timeLimitMs: number;
  /** Memory limit shown in MiB; converted to KiB (`memoryLimitKib`) when sent. */
  memoryLimitMib: number;
  /** Java and Python get their multipliers on top of the time limit. */
  timeScaledByLanguage: boolean;
  /** What runs Python 3 submissions. */
  pythonImplementation: PythonImplementation;
  checker: Checker;
  /** Options of the `kattis` checker; tolerances as typed ("" = none), sent as its flags. */
  validator: ValidatorFormValues;
  /** The `custom` checker's program: its files (name → text) and arguments. */
  customValidator: { files: Record<string, string>; args: string };
  /**
   * The `testlib` checker: its files (the source and testlib.h), whether its
   * `points X` (exit 7) is a percentage of the test's points, and an imported
   * problem's interactor, kept as it is (decision 080).
   */
  testlibChecker: { files: Record<string, string>; pointsAsPercent: boolean; interactor?: { language: "cpp" | "py"; files: Record<string, string>; main: string } };
  /** The validator talks with the submission over pipes (custom checker only). */
  interactive: boolean;
  /** Runs of the submission per test: 1, or more for a multi-pass problem (custom checker only). */
  validationPasses: number;
  hiddenTestCases: { input: string; expectedOutput: string; group?: string }[];
  /** Test groups with points (a scoring problem); off: pass-fail. */
  scoringOn: boolean;
  groups: GroupFormValues[];
  /** Topic tags' slugs, in the order chosen (at most 8). */
  tags: string[];
}

export interface ValidatorFormValues {
  caseSensitive: boolean;
  spaceChangeSensitive: boolean;
  absoluteTolerance: string;
  relativeTolerance: string;
}

export const BLANK_VALIDATOR: ValidatorFormValues = { caseSensitive: false, spaceChangeSensitive: false, absoluteTolerance: "", relativeTolerance: "" };

/** The `kattis` checker's flags as the package format spells them; tolerances are sent as typed (the server checks them). */
export function validatorFlags(v: ValidatorFormValues): string {
  const out: string[] = [];
  if (v.caseSensitive) out.push("case_sensitive");
  if (v.spaceChangeSensitive) out.push("space_change_sensitive");
  const abs = v.absoluteTolerance.trim();
  const rel = v.relativeTolerance.trim();
  if (abs && abs === rel) out.push("float_tolerance", abs);
  else {
    if (abs) out.push("float_absolute_tolerance", abs);
    if (rel) out.push("float_relative_tolerance", rel);
  }
  return out.join(" ");
}

/** The form's options from a problem's stored flags (canonical: the server stored them). */
export function validatorFromFlags(flags: string): ValidatorFormValues {
  const parsed = parseValidatorFlags(flags);
  if (!parsed.ok) return BLANK_VALIDATOR;
  const o = parsed.options;
  return {
    caseSensitive: o.caseSensitive,
    spaceChangeSensitive: o.spaceChangeSensitive,
    absoluteTolerance: o.floatAbsoluteTolerance === null ? "" : String(o.floatAbsoluteTolerance),
    relativeTolerance: o.floatRelativeTolerance === null ? "" : String(o.floatRelativeTolerance),
  };
}

/** The server's bounds (src/problems/limits.ts) for the inputs' min/max; memory shown in MiB. */
export const TIME_LIMIT_MS = PROBLEM_LIMITS.timeLimitMs;
const KIB_PER_MIB = 1024;
export const MEMORY_LIMIT_MIB = {
  min: PROBLEM_LIMITS.memoryLimitKib.min / KIB_PER_MIB,
  max: PROBLEM_LIMITS.memoryLimitKib.max / KIB_PER_MIB,
  default: PROBLEM_LIMITS.memoryLimitKib.default / KIB_PER_MIB,
};

/** A blank form: difficulty easy, default limits, line checker, one empty hidden test case (what Cancel and a save reset to). */
export function blankProblemForm(): ProblemFormValues {
  return {
    title: "",
    description: "",
    inputFormat: "",
    outputFormat: "",
    constraints: "",
    sampleInput: "",
    sampleOutput: "",
    difficulty: DIFFICULTIES[0],
    timeLimitMs: TIME_LIMIT_MS.default,
    memoryLimitMib: MEMORY_LIMIT_MIB.default,
    timeScaledByLanguage: true,
    pythonImplementation: "cpython",
    checker: DEFAULT_CHECKER,
    validator: BLANK_VALIDATOR,
    customValidator: { files: {}, args: "" },
    testlibChecker: { files: {}, pointsAsPercent: true },
    interactive: false,
    validationPasses: PROBLEM_LIMITS.validationPasses.min,
    hiddenTestCases: [{ input: "", expectedOutput: "" }],
    scoringOn: false,
    groups: [],
    tags: [],
  };
}

/** Each checker's name in the list (the server's CHECKER_LABELS, through the catalogue). */
const CHECKER_KEYS = {
  lines: "checker.lines",
  tokens: "checker.tokens",
  float: "checker.float",
  kattis: "checker.kattis",
  custom: "checker.custom",
  testlib: "checker.testlib",
} as const satisfies Record<Checker, string>;

const DIFFICULTY_KEYS = { easy: "difficulty.easy", medium: "difficulty.medium", hard: "difficulty.hard" } as const satisfies Record<Difficulty, string>;

/** How the custom validator is called (code, not translated). */
const VALIDATOR_COMMAND = "validator input answer feedback_dir [arguments] < output"; // i18n-ignore: a command line
const INTERACTIVE_COMMAND = "validator input answer feedback_dir < program_output > program_input"; // i18n-ignore: a command line
/** How a testlib checker is called (code, not translated). */
const TESTLIB_COMMAND = "check input output answer"; // i18n-ignore: a command line

type TextKey = "title" | "description" | "inputFormat" | "outputFormat" | "constraints" | "sampleInput" | "sampleOutput";
const TEXT_FIELDS = [
  { key: "title", label: "form.titleLabel", multiline: false, placeholder: "form.titlePlaceholder" },
  { key: "description", label: "form.descriptionLabel", multiline: true, placeholder: "form.descriptionPlaceholder" },
  { key: "inputFormat", label: "form.inputFormatLabel", multiline: true, placeholder: "form.inputFormatPlaceholder" },
  { key: "outputFormat", label: "form.outputFormatLabel", multiline: true, placeholder: "form.outputFormatPlaceholder" },
  { key: "constraints", label: "form.constraintsLabel", multiline: true, placeholder: "form.constraintsPlaceholder" },
  { key: "sampleInput", label: "form.sampleInputLabel", multiline: true, mono: true, placeholder: "form.sampleInputPlaceholder" },
  { key: "sampleOutput", label: "form.sampleOutputLabel", multiline: true, mono: true, placeholder: "form.sampleOutputPlaceholder" },
] as const satisfies readonly { key: TextKey; label: string; multiline: boolean; mono?: boolean; placeholder: string }[];

interface Props {
  open: boolean;
  mode: "create" | "edit";
  values: ProblemFormValues;
  onChange: (values: ProblemFormValues) => void;
  onSubmit: () => void;
  onCancel: () => void;
  saving: boolean;
  error: string | null;
}

export function ProblemFormModal({ open, mode, values, onChange, onSubmit, onCancel, saving, error }: Props) {
  const t = useT(problems);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  const set = <K extends keyof ProblemFormValues>(key: K, value: ProblemFormValues[K]) => onChange({ ...values, [key]: value });
  const setCase = (index: number, key: "input" | "expectedOutput" | "group", value: string) =>
    set(
      "hiddenTestCases",
      values.hiddenTestCases.map((tc, i) => (i === index ? { ...tc, [key]: value } : tc)),
    );

  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit();
  }

  const title = mode === "edit" ? t("form.editTitle") : t("form.createTitle");
  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-labelledby="problem-form-title"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {open && (
        <form className="modal-body form" onSubmit={submit}>
          <div className="modal-head">
            <h2 id="problem-form-title">{title}</h2>
            <button type="button" className="icon-button" aria-label={t("form.close")} onClick={onCancel}>
              ✕
            </button>
          </div>
          {TEXT_FIELDS.map((f) =>
            f.multiline ? (
              <TextArea
                key={f.key}
                id={`pf-${f.key}`}
                label={t(f.label)}
                required={f.key !== "sampleInput" && !(f.key === "sampleOutput" && values.checker === "custom" && values.interactive)}
                rows={f.key === "description" ? 5 : 3}
                mono={"mono" in f && f.mono}
                placeholder={t(f.placeholder)}
                value={values[f.key]}
                onChange={(e) => set(f.key, e.target.value)}
              />
            ) : (
              <TextField key={f.key} id={`pf-${f.key}`} label={t(f.label)} required placeholder={t(f.placeholder)} value={values[f.key]} onChange={(e) => set(f.key, e.target.value)} autoFocus />
            ),
          )}
          <TagPicker value={values.tags} onChange={(tags) => set("tags", tags)} />
          <div className="field-row three">
            <Select id="pf-difficulty" label={t("form.difficulty")} value={values.difficulty} onChange={(e) => set("difficulty", e.target.value as Difficulty)}>
                {DIFFICULTIES.map((d) => (
                  <option key={d} value={d}>
                    {t(DIFFICULTY_KEYS[d])}
                  </option>
                ))}
              </Select>
            <NumberField id="pf-time" label={t("form.timeLimit")}
                required
                min={TIME_LIMIT_MS.min}
                max={TIME_LIMIT_MS.max}
                step={100}
                value={Number.isNaN(values.timeLimitMs) ? "" : values.timeLimitMs}
                onChange={(e) => set("timeLimitMs", e.target.valueAsNumber)} />
            <NumberField id="pf-memory" label={t("form.memoryLimit")}
                required
                min={MEMORY_LIMIT_MIB.min}
                max={MEMORY_LIMIT_MIB.max}
                step={1}
                value={Number.isNaN(values.memoryLimitMib) ? "" : values.memoryLimitMib}
                onChange={(e) => set("memoryLimitMib", e.target.valueAsNumber)} />
          </div>
          <Checkbox label={t("form.scaleTime")} checked={values.timeScaledByLanguage}
              onChange={(e) => set("timeScaledByLanguage", e.target.checked)} />
          <Select id="pf-python" label={t("form.python")} value={values.pythonImplementation} onChange={(e) => set("pythonImplementation", e.target.value as PythonImplementation)}>
              {/* i18n-ignore: the implementation's own name */}
              <option value="cpython">CPython (python3)</option>
              <option value="pypy">{t("form.pypy")}</option>
            </Select>
          <Select id="pf-checker" label={t("form.checker")} value={values.checker} onChange={(e) => set("checker", e.target.value as Checker)}>
              {CHECKERS.map((c) => (
                <option key={c} value={c}>
                  {t(CHECKER_KEYS[c])}
                </option>
              ))}
            </Select>
          {values.checker === "custom" && (
            <fieldset className="validator-options">
              <legend>{t("custom.legend")}</legend>
              <p className="muted">
                <T ns={problems} k="custom.about" values={{ command: VALIDATOR_COMMAND }} components={{ 0: <code dir="ltr" /> }} />
              </p>
              <FileButton
                inputLabel={t("custom.filesLabel")}
                multiple
                accept=".cpp,.cc,.cxx,.h,.hpp,.py"
                onFiles={async (picked) => {
                  const files: Record<string, string> = {};
                  for (const f of picked) files[f.name] = await f.text();
                  set("customValidator", { ...values.customValidator, files });
                }}
              >
                {t("custom.chooseFiles")}
              </FileButton>
              <p className="muted" data-testid="validator-files">
                {Object.keys(values.customValidator.files).length ? Object.keys(values.customValidator.files).join(", ") : t("custom.noFiles")}
              </p>
              <TextField id="pf-validator-args" label={t("custom.args")}
                  value={values.customValidator.args}
                  onChange={(e) => set("customValidator", { ...values.customValidator, args: e.target.value })} />
              <Checkbox label={<T ns={problems} k="custom.interactive" values={{ command: INTERACTIVE_COMMAND }} components={{ 0: <code dir="ltr" /> }} />} checked={values.interactive} onChange={(e) => set("interactive", e.target.checked)} />
              <NumberField id="pf-passes" label={t("custom.passes")}
                  min={PROBLEM_LIMITS.validationPasses.min}
                  max={PROBLEM_LIMITS.validationPasses.max}
                  value={values.validationPasses}
                  onChange={(e) => set("validationPasses", Number(e.target.value))} />
            </fieldset>
          )}
          {values.checker === "testlib" && (
            <fieldset className="validator-options">
              <legend>{t("testlib.legend")}</legend>
              <p className="muted">
                <T ns={problems} k="testlib.about" values={{ command: TESTLIB_COMMAND }} components={{ 0: <code dir="ltr" /> }} />
              </p>
              <FileButton
                inputLabel={t("testlib.filesLabel")}
                multiple
                accept=".cpp,.cc,.cxx,.h,.hpp,.py"
                onFiles={async (picked) => {
                  const files: Record<string, string> = {};
                  for (const f of picked) files[f.name] = await f.text();
                  set("testlibChecker", { ...values.testlibChecker, files });
                }}
              >
                {t("testlib.chooseFiles")}
              </FileButton>
              <p className="muted" data-testid="testlib-files">
                {Object.keys(values.testlibChecker.files).length ? Object.keys(values.testlibChecker.files).join(", ") : t("custom.noFiles")}
              </p>
              <Checkbox label={t("testlib.percent")} checked={values.testlibChecker.pointsAsPercent}
                  onChange={(e) => set("testlibChecker", { ...values.testlibChecker, pointsAsPercent: e.target.checked })} />
            </fieldset>
          )}
          {values.checker === "kattis" && (
            <fieldset className="validator-options">
              <legend>{t("kattis.legend")}</legend>
              <Checkbox label={t("kattis.caseSensitive")} checked={values.validator.caseSensitive}
                  onChange={(e) => set("validator", { ...values.validator, caseSensitive: e.target.checked })} />
              <Checkbox label={t("kattis.spaceSensitive")} checked={values.validator.spaceChangeSensitive}
                  onChange={(e) => set("validator", { ...values.validator, spaceChangeSensitive: e.target.checked })} />
              <div className="field-row">
                <TextField id="pf-abs-tol" label={t("kattis.absolute")}
                    inputMode="decimal"
                    placeholder={t("kattis.tolerancePlaceholder")}
                    value={values.validator.absoluteTolerance}
                    onChange={(e) => set("validator", { ...values.validator, absoluteTolerance: e.target.value })} />
                <TextField id="pf-rel-tol" label={t("kattis.relative")}
                    inputMode="decimal"
                    placeholder={t("kattis.tolerancePlaceholder")}
                    value={values.validator.relativeTolerance}
                    onChange={(e) => set("validator", { ...values.validator, relativeTolerance: e.target.value })} />
              </div>
            </fieldset>
          )}

          <GroupsEditor
            on={values.scoringOn}
            groups={values.groups}
            onToggle={(on) => onChange({ ...values, scoringOn: on, groups: on && values.groups.length === 0 ? [{ name: "group1", points: 100, aggregation: "pass-fail", requires: "" }] : values.groups })}
            onChange={(groups) => set("groups", groups)}
          />

          <fieldset className="test-cases">
            <legend>{t("tests.legend")}</legend>
            {values.hiddenTestCases.map((tc, i) => (
              <div className="test-case" key={i} role="group" aria-labelledby={`pf-tc-${i}-title`}>
                <div className="test-case-head">
                  <span className="test-case-title" id={`pf-tc-${i}-title`}>
                    {t("tests.title", { n: i + 1 })}
                  </span>
                  <button
                    type="button"
                    className="btn btn-danger-ghost btn-sm"
                    aria-label={t("tests.removeLabel", { n: i + 1 })}
                    onClick={() => set("hiddenTestCases", values.hiddenTestCases.filter((_, j) => j !== i))}
                  >
                    {t("tests.remove")}
                  </button>
                </div>
                <div className="field-row">
                  <TextArea id={`pf-tc-${i}-input`} label={t("tests.input")} mono rows={3} value={tc.input} onChange={(e) => setCase(i, "input", e.target.value)} />
                  <TextArea id={`pf-tc-${i}-output`} label={t("tests.expectedOutput")} mono rows={3} value={tc.expectedOutput} onChange={(e) => setCase(i, "expectedOutput", e.target.value)} />
                </div>
                {values.scoringOn && (
                  <Select id={`pf-tc-${i}-group`} label={t("tests.group")} value={tc.group ?? ""} onChange={(e) => setCase(i, "group", e.target.value)}>
                      <option value="">{t("tests.chooseGroup")}</option>
                      {values.groups.map((g) => (
                        <option key={g.name} value={g.name}>
                          {g.name}
                        </option>
                      ))}
                    </Select>
                )}
              </div>
            ))}
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => set("hiddenTestCases", [...values.hiddenTestCases, { input: "", expectedOutput: "" }])}
            >
              {t("tests.add")}
            </button>
          </fieldset>

          {error && (
            <p className="alert alert-error" role="alert">
              {error}
            </p>
          )}
          <div className="modal-actions">
            <button type="button" className="btn btn-ghost" onClick={onCancel}>
              {t("form.cancel")}
            </button>
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving && <Spinner />} {mode === "edit" ? t("form.update") : t("form.create")}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
