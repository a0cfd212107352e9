/**
 * Problems list (spec §2, §4, §8): difficulty tabs with counts (default
 * easy), problem cards with ownership read from the token (spec §3), and the
 * Create/Edit modal. Success messages clear after 2 s (save) / 3 s (delete);
 * the list is refetched after every save or delete.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AppHeader } from "../components/AppHeader.tsx";
import { Spinner } from "../components/Loading.tsx";
import { ThemeToggle } from "../components/ThemeToggle.tsx";
import { blankProblemForm, ProblemFormModal, type ProblemFormValues } from "../components/ProblemFormModal.tsx";
import { useAuth } from "../lib/auth.tsx";
import { userIdFromToken } from "../lib/jwt.ts";
import { getToken } from "../lib/storage.ts";
import { httpStatusOf, serverMessageOf, useTRPC } from "../lib/trpc.ts";
import { DIFFICULTIES, type Difficulty, type Problem } from "../lib/types.ts";
import { FormMessage, type FormNotice } from "../components/FormMessage.tsx";

/** Spec §9: success message timeouts. */
const SAVE_MESSAGE_MS = 2000;
const DELETE_MESSAGE_MS = 3000;
const KIB_PER_MIB = 1024;

function formFromProblem(p: Problem): ProblemFormValues {
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
    checker: p.checker,
    hiddenTestCases: cases.map((c) => ({ input: c.input, expectedOutput: c.expectedOutput })),
  };
}

function payloadFromForm(v: ProblemFormValues) {
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
    checker: v.checker,
    hiddenTestCases: v.hiddenTestCases,
  };
}

export function ProblemsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { logout, expire } = useAuth();
  const [, navigate] = useLocation();
  // The tab lives in the URL (?difficulty=hard) so links can open a level and a reload keeps it.
  const [searchParams, setSearchParams] = useSearchParams();
  const wanted = searchParams.get("difficulty");
  const tab: Difficulty = DIFFICULTIES.find((d) => d === wanted) ?? "easy";
  const setTab = (d: Difficulty) => setSearchParams({ difficulty: d }, { replace: true });
  const [modalOpen, setModalOpen] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [form, setForm] = useState<ProblemFormValues>(blankProblemForm);
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<FormNotice | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState<string | null>(null);
  const noticeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(noticeTimer.current), []);

  const myId = userIdFromToken(getToken());
  const listQuery = useQuery(trpc.problems.list.queryOptions());
  const create = useMutation(trpc.problems.create.mutationOptions());
  const update = useMutation(trpc.problems.update.mutationOptions());
  const remove = useMutation(trpc.problems.delete.mutationOptions());

  // Spec §4/§8: no stored token, or a 401 while loading → sign out and go to /.
  const loadStatus = listQuery.isError ? httpStatusOf(listQuery.error) : null;
  useEffect(() => {
    if (!getToken() || loadStatus === 401) {
      expire();
      navigate("/", { replace: true });
    }
  }, [loadStatus, expire, navigate]);

  function flash(kind: "success" | "error", text: string, ms?: number) {
    clearTimeout(noticeTimer.current);
    setNotice({ kind, text });
    if (ms) noticeTimer.current = setTimeout(() => setNotice(null), ms);
  }

  function resetForm() {
    setModalOpen(false);
    setEditingId(null);
    setForm(blankProblemForm());
    setFormError(null);
  }

  function openCreate() {
    setEditingId(null);
    setForm(blankProblemForm());
    setFormError(null);
    setModalOpen(true);
  }

  function openEdit(p: Problem) {
    setEditingId(p._id);
    setForm(formFromProblem(p));
    setFormError(null);
    setModalOpen(true);
  }

  async function save() {
    setFormError(null);
    const payload = payloadFromForm(form);
    try {
      if (editingId) await update.mutateAsync({ id: editingId, ...payload });
      else await create.mutateAsync(payload);
      resetForm();
      // Show the saved problem's level, so a problem whose difficulty changed does not seem to vanish.
      setTab(payload.difficulty);
      flash("success", "Problem saved successfully!", SAVE_MESSAGE_MS);
      await queryClient.invalidateQueries({ queryKey: trpc.problems.list.queryKey() });
    } catch (err) {
      const status = httpStatusOf(err);
      if (status === 401) {
        expire();
        navigate("/signin");
        return;
      }
      if (status === 403) setFormError("You can only update your own problems.");
      else setFormError(serverMessageOf(err) ?? (status ? `HTTP error! status: ${status}` : "Failed to save problem."));
    }
  }

  async function del(id: string) {
    setConfirmingDelete(null);
    try {
      await remove.mutateAsync({ id });
      flash("success", "Problem deleted successfully!", DELETE_MESSAGE_MS);
      await queryClient.invalidateQueries({ queryKey: trpc.problems.list.queryKey() });
    } catch (err) {
      const status = httpStatusOf(err);
      if (status === 401) {
        expire();
        navigate("/signin");
        return;
      }
      if (status === 403) flash("error", "You can only delete your own problems.");
      else flash("error", serverMessageOf(err) ?? (status ? `Failed to delete problem. Status: ${status}` : "Failed to delete problem."));
    }
  }

  function onLogout() {
    navigate("/");
    void logout();
  }

  const problems = listQuery.data ?? [];
  const counts = Object.fromEntries(DIFFICULTIES.map((d) => [d, problems.filter((p) => p.difficulty === d).length])) as Record<Difficulty, number>;
  const shown = problems.filter((p) => p.difficulty === tab);

  return (
    <div className="page">
      <AppHeader>
        <button type="button" className="btn btn-primary btn-sm" onClick={openCreate}>
          <span aria-hidden="true">+</span> Create Problem
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onLogout}>
          Logout
        </button>
        <ThemeToggle />
      </AppHeader>
      <main className="page-main container">
        <div className="page-heading">
          <h1 className="page-title">Problems To Solve</h1>
          <p className="muted">Explore coding challenges and test your skills.</p>
        </div>

        <FormMessage notice={notice} />

        <div
          className="tabs"
          role="tablist"
          aria-label="Difficulty"
          onKeyDown={(e) => {
            // WAI-ARIA tabs pattern: arrow keys, Home and End move between tabs.
            const i = DIFFICULTIES.indexOf(tab);
            const next =
              e.key === "ArrowRight" ? DIFFICULTIES[(i + 1) % DIFFICULTIES.length]
              : e.key === "ArrowLeft" ? DIFFICULTIES[(i + DIFFICULTIES.length - 1) % DIFFICULTIES.length]
              : e.key === "Home" ? DIFFICULTIES[0]
              : e.key === "End" ? DIFFICULTIES[DIFFICULTIES.length - 1]
              : undefined;
            if (!next) return;
            e.preventDefault();
            setTab(next);
            document.getElementById(`tab-${next}`)?.focus();
          }}
        >
          {DIFFICULTIES.map((d) => (
            <button
              key={d}
              type="button"
              role="tab"
              id={`tab-${d}`}
              aria-selected={tab === d}
              tabIndex={tab === d ? 0 : -1}
              aria-controls="problems-panel"
              className={`tab tab-${d}${tab === d ? " active" : ""}`}
              onClick={() => setTab(d)}
            >
              <span className="tab-label">{d}</span>
              <span className="tab-count" aria-label={`${counts[d]} problems`}>
                {counts[d]}
              </span>
            </button>
          ))}
        </div>

        <section id="problems-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
          {listQuery.isPending ? (
            <div className="center-state" role="status">
              <Spinner /> Loading problems...
            </div>
          ) : listQuery.isError ? (
            <p className="alert alert-error" role="alert">
              Failed to fetch problems
            </p>
          ) : shown.length === 0 ? (
            <div className="empty-state">
              <h2>No {tab} problems yet</h2>
              <p className="muted">Be the first to create a {tab} problem for the community!</p>
            </div>
          ) : (
            <ul className="problem-grid">
              {shown.map((p) => {
                const mine = myId !== null && p.user === myId;
                return (
                  <li key={p._id} className="card problem-card" data-testid="problem-card">
                    <div className="problem-card-head">
                      <h2 className="problem-card-title">{p.title}</h2>
                      <span className={`badge badge-${p.difficulty}`}>{p.difficulty.toUpperCase()}</span>
                    </div>
                    <p className="clamp-2 muted">{p.description}</p>
                    {!mine && <p className="owner-note">Created by another user</p>}
                    <div className="card-actions">
                      <Link href={`/solve/${p._id}`} className="btn btn-primary btn-sm">
                        Solve
                      </Link>
                      <Link href={`/my-submissions/${p._id}`} className="btn btn-ghost btn-sm">
                        My Submissions
                      </Link>
                      {mine &&
                        (confirmingDelete === p._id ? (
                          <span className="confirm-delete" role="group" aria-label={`Confirm deleting ${p.title}`}>
                            <button type="button" className="btn btn-danger btn-sm" onClick={() => del(p._id)} disabled={remove.isPending}>
                              Confirm Delete
                            </button>
                            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirmingDelete(null)}>
                              Keep
                            </button>
                          </span>
                        ) : (
                          <>
                            <button type="button" className="btn btn-ghost btn-sm" onClick={() => openEdit(p)} aria-label={`Edit ${p.title}`}>
                              Edit
                            </button>
                            <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => setConfirmingDelete(p._id)} aria-label={`Delete ${p.title}`}>
                              Delete
                            </button>
                          </>
                        ))}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      </main>
      <ProblemFormModal
        open={modalOpen}
        mode={editingId ? "edit" : "create"}
        values={form}
        onChange={setForm}
        onSubmit={save}
        onCancel={resetForm}
        saving={create.isPending || update.isPending}
        error={formError}
      />
    </div>
  );
}
