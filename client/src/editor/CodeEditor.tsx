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
}

export default function CodeEditor({ value, language, onChange }: Props) {
  return (
    <Editor
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
