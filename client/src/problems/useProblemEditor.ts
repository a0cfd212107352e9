/**
 * Creating, editing and deleting problems from the list: the modal's state,
 * save and delete with the product's messages (saved after 2 s, deleted after
 * 3 s, the owner 403s), and the list refetched after each.
 */
import { useState } from "react";
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { blankProblemForm, validatorFlags, validatorFromFlags, type ProblemFormValues } from "../components/ProblemFormModal.tsx";
import { groupsFromScoring, scoringFromGroups } from "./GroupsEditor.tsx";
import { useSessionExpiry } from "../lib/auth.tsx";
import { useNotice } from "../lib/notice.ts";
import { httpStatusOf, serverMessageOf, useTRPC } from "../lib/trpc.ts";
import type { Difficulty, Problem } from "../lib/types.ts";
import { useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";

/** How long the success messages stay, ms. */
const SAVE_MESSAGE_MS = 2000;
const DELETE_MESSAGE_MS = 3000;
const KIB_PER_MIB = 1024;

export function formFromProblem(p: Problem): ProblemFormValues {
  const cases = p.hiddenTestCases?.length ? p.hiddenTestCases : [{ input: "", expectedOutput: "" }];
  return {
    title: p.title,
    description: p.description,
    inputFormat: p.inputFormat,
    outputFormat: p.outputFormat,
    constraints: p.constraints,
    sampleInput: p.sampleInput,
    sampleOutput: p.sampleOutput,
    difficulty: p.difficulty,
    timeLimitMs: p.timeLimitMs,
    memoryLimitMib: Math.round(p.memoryLimitKib / KIB_PER_MIB),
    timeScaledByLanguage: p.timeScaledByLanguage,
    pythonImplementation: p.pythonImplementation,
    checker: p.checker,
    validator: validatorFromFlags(p.checkerFlags),
    customValidator: { files: p.validator?.testlib ? {} : (p.validator?.files ?? {}), args: p.validator?.args ?? "" },
    testlibChecker: p.validator?.testlib
      ? { files: p.validator.files, pointsAsPercent: p.validator.testlib.pointsAsPercent, ...(p.validator.testlib.interactor ? { interactor: p.validator.testlib.interactor } : {}) }
      : { files: {}, pointsAsPercent: true },
    interactive: p.interactive,
    validationPasses: p.validationPasses,
    scoringOn: p.scoring !== null,
    groups: groupsFromScoring(p.scoring),
    tags: p.tags.map((tag) => tag.slug),
    hiddenTestCases: cases.map((c) => ({ input: c.input, expectedOutput: c.expectedOutput, ...(c.group ? { group: c.group } : {}) })),
  };
}

export function payloadFromForm(v: ProblemFormValues) {
  return {
    title: v.title,
    description: v.description,
    inputFormat: v.inputFormat,
    outputFormat: v.outputFormat,
    constraints: v.constraints,
    sampleInput: v.sampleInput,
    sampleOutput: v.sampleOutput,
    difficulty: v.difficulty,
    timeLimitMs: v.timeLimitMs,
    memoryLimitKib: Math.round(v.memoryLimitMib * KIB_PER_MIB),
    timeScaledByLanguage: v.timeScaledByLanguage,
    pythonImplementation: v.pythonImplementation,
    checker: v.checker,
    checkerFlags: v.checker === "kattis" ? validatorFlags(v.validator) : "",
    ...(v.checker === "custom" ? { validator: v.customValidator } : {}),
    // A testlib checker (decision 080): its files marked testlib; an imported one's interactor goes back with them.
    ...(v.checker === "testlib" && Object.keys(v.testlibChecker.files).length
      ? { validator: { files: v.testlibChecker.files, args: "", testlib: { pointsAsPercent: v.testlibChecker.pointsAsPercent, ...(v.testlibChecker.interactor ? { interactor: v.testlibChecker.interactor } : {}) } } }
      : {}),
    // Interactive and multi-pass need the custom checker (interactive: or an imported testlib one, with its interactor); with another checker they are off.
    interactive: (v.checker === "custom" || v.checker === "testlib") && v.interactive,
    validationPasses: v.checker === "custom" ? v.validationPasses : 1,
    // Test groups: each test names its group; off, the tests carry none and the problem is pass-fail.
    scoring: v.scoringOn ? scoringFromGroups(v.groups) : null,
    tags: v.tags,
    hiddenTestCases: v.hiddenTestCases.map((tc) => (v.scoringOn ? { input: tc.input, expectedOutput: tc.expectedOutput, ...(tc.group ? { group: tc.group } : {}) } : { input: tc.input, expectedOutput: tc.expectedOutput })),
  };
}

/**
 * @param listKey the list query to refetch after a save or delete.
 * @param onSaved called with the saved problem's difficulty (the page shows that tab).
 */
export function useProblemEditor(listKey: QueryKey, onSaved: (difficulty: Difficulty) => void) {
  const t = useT(problems);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onUnauthorized = useSessionExpiry();
  const [modalOpen, setModalOpen] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [form, setForm] = useState<ProblemFormValues>(blankProblemForm);
  const [formError, setFormError] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState<string | null>(null);
  const { notice, show: flash } = useNotice();

  const create = useMutation(trpc.problems.create.mutationOptions());
  const update = useMutation(trpc.problems.update.mutationOptions());
  const remove = useMutation(trpc.problems.delete.mutationOptions());
  const rejudging = useMutation(trpc.problems.rejudge.mutationOptions());

  function open(p: Problem | null) {
    setEditingId(p?._id ?? null);
    setForm(p ? formFromProblem(p) : blankProblemForm());
    setFormError(null);
    setModalOpen(true);
  }

  function close() {
    setModalOpen(false);
    setEditingId(null);
    setForm(blankProblemForm());
    setFormError(null);
  }

  async function save() {
    setFormError(null);
    const payload = payloadFromForm(form);
    try {
      if (editingId) await update.mutateAsync({ id: editingId, ...payload });
      else await create.mutateAsync(payload);
      close();
      // Show the saved problem's level, so a problem whose difficulty changed does not seem to vanish.
      onSaved(payload.difficulty);
      flash("success", t("editor.saved"), SAVE_MESSAGE_MS);
      await queryClient.invalidateQueries({ queryKey: listKey });
    } catch (err) {
      if (onUnauthorized(err, "/signin")) return;
      const status = httpStatusOf(err);
      if (status === 403) setFormError(t("editor.onlyOwnUpdate"));
      else setFormError(serverMessageOf(err) ?? (status ? t("editor.httpError", { status }) : t("editor.saveFailed")));
    }
  }

  /** Opens the form on a problem the server sends whole (`problems.forEdit`); its refusal is shown, nothing opens. */
  async function openFrom(load: () => Promise<Problem>) {
    try {
      open(await load());
    } catch (err) {
      if (onUnauthorized(err, "/signin")) return;
      const status = httpStatusOf(err);
      if (status === 403) flash("error", t("editor.onlyOwnUpdate"));
      else flash("error", serverMessageOf(err) ?? t("editor.loadFailed"));
    }
  }

  async function del(id: string) {
    setConfirmingDelete(null);
    try {
      await remove.mutateAsync({ id });
      flash("success", t("editor.deleted"), DELETE_MESSAGE_MS);
      await queryClient.invalidateQueries({ queryKey: listKey });
    } catch (err) {
      if (onUnauthorized(err, "/signin")) return;
      const status = httpStatusOf(err);
      if (status === 403) flash("error", t("editor.onlyOwnDelete"));
      else flash("error", serverMessageOf(err) ?? (status ? t("editor.deleteFailedStatus", { status }) : t("editor.deleteFailed")));
    }
  }

  /** Sends every judged submission of the problem back to the judge (after its tests changed). */
  async function rejudge(p: Pick<Problem, "_id" | "title">) {
    try {
      const { queued } = await rejudging.mutateAsync({ id: p._id });
      flash("success", queued ? t("editor.rejudgeQueued", { count: queued, title: p.title }) : t("editor.rejudgeNothing", { title: p.title }), DELETE_MESSAGE_MS);
    } catch (err) {
      if (onUnauthorized(err, "/signin")) return;
      flash("error", serverMessageOf(err) ?? t("editor.rejudgeFailed"), DELETE_MESSAGE_MS);
    }
  }

  return {
    modal: { open: modalOpen, mode: editingId ? ("edit" as const) : ("create" as const), values: form, error: formError },
    setForm,
    saving: create.isPending || update.isPending,
    deleting: remove.isPending,
    notice,
    confirmingDelete,
    setConfirmingDelete,
    openCreate: () => open(null),
    openEdit: (p: Problem) => open(p),
    openEditFrom: openFrom,
    close,
    save,
    del,
    rejudge,
    rejudging: rejudging.isPending,
  };
}
