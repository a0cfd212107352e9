/**
 * The code editor of the solving page: usable as soon as the page has its content. It shows the
 * plain editor (PlainCodeEditor.tsx, a textarea with Monaco's font, keys and name) at once and swaps
 * in Monaco (MonacoEditor.tsx, a lazy chunk of about 1 MiB gzipped) when it has loaded, carrying over
 * the text, the selection, the scroll and the focus, so someone typing during the swap loses nothing.
 * If Monaco cannot load, the plain editor stays, with a note. The two overlap in a box of the
 * editor frame's size: Monaco is created hidden under the plain editor and shown, and the plain editor
 * hidden, in the task that hands over (MonacoEditor.tsx's onMount).
 *
 * This module is small and part of the solving page's chunk, so the plain editor comes in the same
 * render as the problem; Monaco's chunk is requested once the plain editor has been painted and its
 * user is not typing (a pause of TYPING_PAUSE_MS, at most MONACO_WAIT_MAX_MS after the mount), so its
 * evaluation and creation (long tasks) hold up neither the page's content nor the first keys typed
 * (docs/benchmarks.md, "Client"; decision 062).
 *
 * `describedBy` names the element that tells how to leave the editor by keyboard (Esc then Tab, or
 * Ctrl+M); both editors set it as their input's aria-describedby.
 */
import { useCallback, useEffect, useRef, useState, type ComponentType } from "react";
import { useT } from "../i18n/index.tsx";
import { editor as editorNs } from "../i18n/catalog/editor/index.ts";
import { PlainCodeEditor } from "./PlainCodeEditor.tsx";
import "./editor.css";
import type { MonacoEditorProps, TakeOver } from "./MonacoEditor.tsx";

interface Props {
  value: string;
  language: string;
  onChange: (code: string) => void;
  /** Told of each paste of LARGE_PASTE_CHARS characters or more (its size only), where the course records pastes. */
  onLargePaste?: (chars: number) => void;
  /** Id of the element describing the editor (the keyboard escape tip), set as the input's aria-describedby. */
  describedBy?: string;
}

type MonacoComponent = ComponentType<MonacoEditorProps>;

/** Monaco is requested after this long without a key in the plain editor (ms)… */
const TYPING_PAUSE_MS = 700;
/** …or this long after the plain editor is mounted, whichever comes first (ms). */
const MONACO_WAIT_MAX_MS = 5000;

let monacoLoaded: MonacoComponent | null = null;
let monacoChunk: Promise<MonacoComponent> | null = null;

/** Loads Monaco's chunk once per page (a failed load is tried again by the next editor). */
function loadMonaco(): Promise<MonacoComponent> {
  monacoChunk ??= import("./MonacoEditor.tsx").then(
    (m) => (monacoLoaded = m.default),
    (err: unknown) => {
      monacoChunk = null;
      throw err;
    },
  );
  return monacoChunk;
}

export default function CodeEditor({ value, language, onChange, onLargePaste, describedBy }: Props) {
  const t = useT(editorNs);
  const [Monaco, setMonaco] = useState<MonacoComponent | null>(() => monacoLoaded);
  const [failed, setFailed] = useState(false);
  const [swapped, setSwapped] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const plain = useRef<HTMLTextAreaElement>(null);
  const monacoBox = useRef<HTMLDivElement>(null);

  // Monaco is requested once the plain editor has been painted and nobody is typing in it: its evaluation and
  // creation are long tasks (hundreds of ms) that would hold up the keys typed meanwhile. It waits for a pause of
  // TYPING_PAUSE_MS in the plain editor, and at most MONACO_WAIT_MAX_MS from the mount.
  useEffect(() => {
    if (Monaco) return;
    let live = true;
    let started = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const mountedAt = performance.now();
    const el = plain.current;
    const start = () => {
      if (started) return;
      started = true;
      el?.removeEventListener("keydown", wait);
      loadMonaco().then(
        (m) => live && setMonaco(() => m),
        (err: unknown) => {
          console.warn("The full editor could not be loaded; the plain editor stays:", err);
          if (live) setFailed(true);
        },
      );
    };
    function wait() {
      clearTimeout(timer);
      timer = setTimeout(start, Math.max(0, Math.min(TYPING_PAUSE_MS, mountedAt + MONACO_WAIT_MAX_MS - performance.now())));
    }
    el?.addEventListener("keydown", wait);
    const frame = requestAnimationFrame(wait);
    return () => {
      live = false;
      el?.removeEventListener("keydown", wait);
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [Monaco]);

  const takeOver = useCallback((): TakeOver | null => {
    const el = plain.current;
    if (!el) return null;
    return {
      text: el.value,
      selectionStart: el.selectionStart,
      selectionEnd: el.selectionEnd,
      backward: el.selectionDirection === "backward",
      scrollTop: el.scrollTop,
      scrollLeft: el.scrollLeft,
      focused: document.activeElement === el,
    };
  }, []);
  const onReady = useCallback(() => {
    // In this task (before Monaco takes the focus): Monaco shown, the plain editor gone from view; React
    // then removes the plain editor with the next render.
    if (monacoBox.current) monacoBox.current.style.visibility = "";
    if (plain.current) plain.current.style.display = "none";
    setSwapped(true);
  }, []);

  return (
    <div className="code-editor">
      {Monaco && (
        // Hidden (but laid out) until it takes over, so it is never seen or reached beside the plain editor.
        <div className="code-editor-monaco" ref={monacoBox} style={swapped ? undefined : { visibility: "hidden" }}>
          <Monaco
            value={value}
            language={language}
            onChange={onChange}
            onLargePaste={onLargePaste}
            describedBy={describedBy}
            label={t("label")}
            takeOver={takeOver}
            onReady={onReady}
          />
        </div>
      )}
      {!swapped && (
        <PlainCodeEditor
          ref={plain}
          value={value}
          onChange={onChange}
          label={t("label")}
          describedBy={describedBy}
          onLargePaste={onLargePaste}
          onTabFocusToggle={(on) => setAnnouncement(t(on ? "tabMovesFocus" : "tabTypesTab"))}
        />
      )}
      {failed && <p className="code-editor-note">{t("fullEditorFailed")}</p>}
      <span className="sr-only" role="status">
        {announcement}
      </span>
    </div>
  );
}
