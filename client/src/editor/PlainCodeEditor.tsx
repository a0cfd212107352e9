/**
 * The plain code editor: a textarea shown in the editor's place as soon as the solving page has its
 * content, while Monaco (about 1 MiB gzipped) loads, and kept when Monaco cannot load. The same
 * font, size and line height as Monaco (settings.ts), the page's code colours (themes.ts), the same
 * name and description (`label`, aria-describedby `describedBy`), and the same keys: Tab indents
 * (Shift+Tab outdents), Enter keeps the indentation (plain-editing.ts), Esc then Tab (or Shift+Tab)
 * moves the focus once, Ctrl+M (Ctrl+Shift+M on macOS) switches Tab to moving the focus
 * (tab-focus.ts; `onTabFocusToggle` is told, to announce it). Pastes of LARGE_PASTE_CHARS or more
 * are reported by size as Monaco's are. CodeEditor.tsx swaps Monaco in, reading this textarea's
 * text, selection, scroll and focus through the forwarded ref.
 */
import { forwardRef, useRef, type ClipboardEvent, type KeyboardEvent } from "react";
import { useTheme } from "../lib/theme.tsx";
import { indentUnitOf, newlineEdit, tabEdit, type TextEdit } from "./plain-editing.ts";
import { EDITOR_SETTINGS, LARGE_PASTE_CHARS } from "./settings.ts";
import { getTabMovesFocus, isMac, isTabFocusToggle, setTabMovesFocus } from "./tab-focus.ts";
import { CODE_PALETTES } from "./themes.ts";

/** Key names (KeyboardEvent.key), not interface text. */
const KEY = { escape: "Escape", tab: "Tab", enter: "Enter", shift: "Shift" } as const; // i18n-ignore: key names

interface Props {
  value: string;
  onChange: (code: string) => void;
  label: string;
  describedBy?: string;
  onLargePaste?: (chars: number) => void;
  onTabFocusToggle: (on: boolean) => void;
}

/** Applies `edit` as typing would: through the browser's editing (undo keeps it; React sees an input event), else setRangeText. */
function apply(el: HTMLTextAreaElement, edit: TextEdit): void {
  el.setSelectionRange(edit.start, edit.end);
  const done = edit.text === "" ? document.execCommand("delete") : document.execCommand("insertText", false, edit.text);
  if (!done) {
    el.setRangeText(edit.text, edit.start, edit.end, "end");
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }
  el.setSelectionRange(edit.selectionStart, edit.selectionEnd);
}

export const PlainCodeEditor = forwardRef<HTMLTextAreaElement, Props>(function PlainCodeEditor(
  { value, onChange, label, describedBy, onLargePaste, onTabFocusToggle },
  ref,
) {
  const { dark } = useTheme();
  const palette = CODE_PALETTES[dark ? "dark" : "light"];
  // Esc was the last key: the next Tab or Shift+Tab moves the focus (as in MonacoEditor.tsx).
  const escaped = useRef(false);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const el = e.currentTarget;
    if (e.key === KEY.escape) {
      escaped.current = true;
      return;
    }
    if (isTabFocusToggle(e, isMac())) {
      e.preventDefault();
      const on = !getTabMovesFocus();
      setTabMovesFocus(on);
      onTabFocusToggle(on);
      return;
    }
    if (e.key === KEY.tab && !e.ctrlKey && !e.altKey && !e.metaKey) {
      if (escaped.current || getTabMovesFocus()) return; // the browser moves the focus
      e.preventDefault();
      apply(el, tabEdit(el.value, el.selectionStart, el.selectionEnd, e.shiftKey, indentUnitOf(el.value, EDITOR_SETTINGS.tabSize)));
      return;
    }
    if (e.key !== KEY.shift) escaped.current = false;
    if (e.key === KEY.enter && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      apply(el, newlineEdit(el.value, el.selectionStart, el.selectionEnd));
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const chars = e.clipboardData.getData("text/plain").length;
    if (onLargePaste && chars >= LARGE_PASTE_CHARS) onLargePaste(chars);
  };

  return (
    <textarea
      ref={ref}
      className="plain-code-editor"
      aria-label={label}
      aria-describedby={describedBy}
      dir="ltr"
      translate="no"
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      autoCorrect="off"
      wrap="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onKeyDown}
      onPaste={onPaste}
      onBlur={() => (escaped.current = false)}
      style={{
        fontFamily: EDITOR_SETTINGS.fontFamily,
        fontSize: EDITOR_SETTINGS.fontSizePx,
        lineHeight: `${EDITOR_SETTINGS.lineHeightPx}px`,
        tabSize: EDITOR_SETTINGS.tabSize,
        paddingInlineStart: EDITOR_SETTINGS.gutterPx,
        color: palette.foreground,
        caretColor: palette.foreground,
        backgroundColor: palette.background,
      }}
    />
  );
});
