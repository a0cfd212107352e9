/**
 * The code editor: Monaco through @monaco-editor/react, using the locally
 * bundled monaco-editor (./monaco-setup.ts), 400 px high, dark theme, font
 * size 16, no minimap (the product's editor settings). Default export so the solving page can
 * load it lazily: Monaco's chunk is fetched only here.
 */
import "./monaco-setup.ts";
import Editor from "@monaco-editor/react";

import { editorModeOf } from "../lib/languages.ts";

interface Props {
  value: string;
  language: string;
  onChange: (code: string) => void;
  /** Told of each paste of LARGE_PASTE_CHARS characters or more (its size only), where the course records pastes. */
  onLargePaste?: (chars: number) => void;
}

/** A paste this large or larger is reported (the server's src/similarity/pastes.ts LARGE_PASTE_CHARS). */
export const LARGE_PASTE_CHARS = 200;

export default function CodeEditor({ value, language, onChange, onLargePaste }: Props) {
  return (
    <Editor
      onMount={(editor) => {
        if (!onLargePaste) return;
        editor.onDidPaste((e) => {
          const chars = editor.getModel()?.getValueInRange(e.range).length ?? 0;
          if (chars >= LARGE_PASTE_CHARS) onLargePaste(chars);
        });
      }}
      height="400px"
      theme="vs-dark"
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
