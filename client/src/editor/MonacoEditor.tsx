/**
 * Monaco, the full editor, through @monaco-editor/react and the locally bundled monaco-editor
 * (./monaco-setup.ts): the language's grammar, the product's light or dark theme following the page
 * (./themes.ts), the font of settings.ts, no minimap. A lazy chunk of its own (CodeEditor.tsx loads
 * it while the plain editor is in use); default export for that import.
 *
 * On mount it takes over from the plain editor (`takeOver`: its text, selection, scroll, focus), so
 * nothing typed while Monaco was loading is lost and the caret stays where it was, then calls
 * `onReady` (Monaco is shown, the plain editor goes), then takes the focus if the plain editor had it. Everything happens in one task: no key can land in between.
 *
 * `describedBy` names the element that tells how to leave the editor by keyboard (its input gets
 * aria-describedby). Leaving: Ctrl+M switches Tab to moving focus (Monaco's own, mirrored with
 * tab-focus.ts so a switch made in the plain editor holds), and Esc then Tab (or Shift+Tab) moves
 * focus once without switching (Esc sets the editor's tabFocusMode until the next other key or until
 * it loses focus).
 */
import { useEffect, useMemo, useRef } from "react";
import { monaco } from "./monaco-setup.ts";
import Editor from "@monaco-editor/react";
import type * as MonacoApi from "monaco-editor/editor/editor.api.js";
import { TabFocus } from "monaco-editor/editor/browser/config/tabFocus.js";

import { editorModeOf } from "../lib/languages.ts";
import { useTheme } from "../lib/theme.tsx";
import { positionAt } from "./plain-editing.ts";
import { EDITOR_SETTINGS, LARGE_PASTE_CHARS } from "./settings.ts";
import { getTabMovesFocus, setTabMovesFocus } from "./tab-focus.ts";
import { EDITOR_THEME_NAME } from "./themes.ts";

/** The plain editor's state at the swap: its text, selection (offsets; `backward` when the caret is at its start), scroll (px) and focus. */
export interface TakeOver {
  text: string;
  selectionStart: number;
  selectionEnd: number;
  backward: boolean;
  scrollTop: number;
  scrollLeft: number;
  focused: boolean;
}

export interface MonacoEditorProps {
  value: string;
  language: string;
  onChange: (code: string) => void;
  onLargePaste?: (chars: number) => void;
  describedBy?: string;
  /** The editor's accessible name. */
  label: string;
  /** Reads the plain editor's state at the moment Monaco is ready (null when there is none). */
  takeOver: () => TakeOver | null;
  /** Monaco has taken over: show it and hide the plain editor (it then takes the focus if the plain editor had it). */
  onReady: () => void;
}

export default function MonacoEditor({ value, language, onChange, onLargePaste, describedBy, label, takeOver, onReady }: MonacoEditorProps) {
  const { dark } = useTheme();
  // The paste record can be switched on after the mount (the course's settings arrive later).
  const largePaste = useRef(onLargePaste);
  largePaste.current = onLargePaste;
  // The text is synced here rather than by @monaco-editor/react's `value`: when the page re-renders late (a busy
  // main thread) with a value this editor emitted before its latest key, the wrapper would put that older text
  // back (losing the key and moving the caret to the end). A value this editor emitted since the page last caught
  // up is such an echo and is ignored; any other value that differs from the editor's (Reset to Boilerplate, a
  // language change) replaces its text as an edit (undoable).
  const editorRef = useRef<MonacoApi.editor.IStandaloneCodeEditor | null>(null);
  const emitted = useRef(new Set<string>());
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    if (value === model.getValue()) {
      emitted.current.clear();
      return;
    }
    if (emitted.current.has(value)) return;
    emitted.current.clear();
    editor.executeEdits("", [{ range: model.getFullModelRange(), text: value, forceMoveMarkers: true }]);
    editor.pushUndoStop();
  }, [value]);
  // Ctrl+M in Monaco is mirrored into tab-focus.ts, for the next plain editor (another problem's page).
  useEffect(() => {
    const sub = TabFocus.onDidChangeTabFocus(setTabMovesFocus);
    return () => sub.dispose();
  }, []);
  const options = useMemo(
    () => ({
      fontFamily: EDITOR_SETTINGS.fontFamily,
      fontSize: EDITOR_SETTINGS.fontSizePx,
      lineHeight: EDITOR_SETTINGS.lineHeightPx,
      minimap: { enabled: false },
      automaticLayout: true,
      scrollBeyondLastLine: false,
      tabSize: EDITOR_SETTINGS.tabSize,
      ariaLabel: label,
      fixedOverflowWidgets: true,
    }),
    [label],
  );
  return (
    <Editor
      onMount={(editor) => {
        editorRef.current = editor;
        // Take over from the plain editor: its text (typed while Monaco loaded), selection, scroll and focus.
        const state = takeOver();
        const model = editor.getModel();
        if (state && model) {
          if (model.getValue() !== state.text) {
            model.setValue(state.text);
            onChange(state.text);
          }
          const a = positionAt(state.text, state.selectionStart);
          const b = positionAt(state.text, state.selectionEnd);
          editor.setSelection(state.backward ? monaco.Selection.fromPositions(b, a) : monaco.Selection.fromPositions(a, b));
          editor.setScrollPosition({ scrollTop: state.scrollTop, scrollLeft: state.scrollLeft });
          editor.revealPositionInCenterIfOutsideViewport(editor.getPosition()!);
        }
        TabFocus.setTabFocusMode(getTabMovesFocus());
        onReady();
        if (state?.focused) editor.focus();

        // Monaco has no option for aria-describedby: set it on the element that takes the focus (a textarea,
        // or the EditContext div in browsers that have it), once it is known and whenever the editor gets focus.
        const describe = (el: Element | null | undefined) => {
          if (el && describedBy) el.setAttribute("aria-describedby", describedBy);
        };
        // i18n-ignore: a CSS selector
        describe(editor.getDomNode()?.querySelector("textarea, .native-edit-context, [role='textbox']"));
        if (editor.getDomNode()?.contains(document.activeElement)) describe(document.activeElement);
        editor.onDidFocusEditorText(() => {
          if (editor.getDomNode()?.contains(document.activeElement)) describe(document.activeElement);
        });
        let escaped = false;
        const setEscaped = (on: boolean) => {
          if (escaped === on) return;
          escaped = on;
          editor.updateOptions({ tabFocusMode: on });
        };
        editor.onKeyDown((e) => {
          if (e.keyCode === monaco.KeyCode.Escape) setEscaped(true);
          else if (e.keyCode !== monaco.KeyCode.Tab && e.keyCode !== monaco.KeyCode.Shift) setEscaped(false);
        });
        editor.onDidBlurEditorText(() => setEscaped(false));
        editor.onDidPaste((e) => {
          const chars = editor.getModel()?.getValueInRange(e.range).length ?? 0;
          if (largePaste.current && chars >= LARGE_PASTE_CHARS) largePaste.current(chars);
        });
      }}
      height="100%"
      theme={dark ? EDITOR_THEME_NAME.dark : EDITOR_THEME_NAME.light}
      language={editorModeOf(language, "plaintext")}
      defaultValue={value}
      onChange={(v) => {
        emitted.current.add(v ?? "");
        onChange(v ?? "");
      }}
      loading={null}
      options={options}
    />
  );
}
