/**
 * The code editor: Monaco through @monaco-editor/react, using the locally
 * bundled monaco-editor (./monaco-setup.ts), 400 px high, the product's light
 * or dark theme following the page (./themes.ts), font size 16, no minimap
 * (the product's editor settings). `describedBy` names the element that tells
 * how to leave the editor by keyboard (its textarea gets aria-describedby).
 * Leaving: Ctrl+M switches Tab to moving focus (Monaco's own), and Esc then
 * Tab (or Shift+Tab) moves focus once without switching (added here: Esc sets
 * the editor's tabFocusMode until the next other key or until it loses focus). Default export so the solving page can
 * load it lazily: Monaco's chunk is fetched only here.
 */
import { monaco } from "./monaco-setup.ts";
import Editor from "@monaco-editor/react";

import { editorModeOf } from "../lib/languages.ts";
import { useTheme } from "../lib/theme.tsx";
import { EDITOR_THEME_NAME } from "./themes.ts";

interface Props {
  value: string;
  language: string;
  onChange: (code: string) => void;
  /** Told of each paste of LARGE_PASTE_CHARS characters or more (its size only), where the course records pastes. */
  onLargePaste?: (chars: number) => void;
  /** Id of the element describing the editor (the keyboard escape tip), set as the textarea's aria-describedby. */
  describedBy?: string;
}

/** A paste this large or larger is reported (the server's src/similarity/pastes.ts LARGE_PASTE_CHARS). */
export const LARGE_PASTE_CHARS = 200;

export default function CodeEditor({ value, language, onChange, onLargePaste, describedBy }: Props) {
  const { dark } = useTheme();
  return (
    <Editor
      onMount={(editor) => {
        // Monaco has no option for aria-describedby: set it on the element that takes the focus (a textarea,
        // or the EditContext div in browsers that have it), once it is known and whenever the editor gets focus.
        const describe = (el: Element | null | undefined) => {
          if (el && describedBy) el.setAttribute("aria-describedby", describedBy);
        };
        describe(editor.getDomNode()?.querySelector("textarea, .native-edit-context, [role='textbox']"));
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
        if (!onLargePaste) return;
        editor.onDidPaste((e) => {
          const chars = editor.getModel()?.getValueInRange(e.range).length ?? 0;
          if (chars >= LARGE_PASTE_CHARS) onLargePaste(chars);
        });
      }}
      height="400px"
      theme={dark ? EDITOR_THEME_NAME.dark : EDITOR_THEME_NAME.light}
      language={editorModeOf(language, "plaintext")}
      value={value}
      onChange={(v) => onChange(v ?? "")}
      loading={<div className="editor-loading">Loading editor...</div>}
      options={{
        fontSize: 16,
        minimap: { enabled: false },
        automaticLayout: true,
        scrollBeyondLastLine: false,
        tabSize: 4,
        ariaLabel: "Code editor",
        fixedOverflowWidgets: true,
      }}
    />
  );
}
