/**
 * The editor's settings, shared by the plain editor shown first (PlainCodeEditor.tsx) and Monaco
 * (MonacoEditor.tsx), so the swap from one to the other does not move the text: the same font,
 * size and line height (px), the same tab stops (characters), and Monaco's gutter width (px: the
 * line numbers and folding margin) as the plain editor's left padding.
 */
export const EDITOR_SETTINGS = {
  // The page's monospace stack (styles.css --mono).
  fontFamily: 'ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, "Liberation Mono", monospace',
  fontSizePx: 16,
  lineHeightPx: 22,
  tabSize: 4,
  /** Monaco's content left (its layout's contentLeft) with these settings: the plain editor pads its text by as much. */
  gutterPx: 74,
} as const;

/** A paste this large or larger is reported, by size only, where the course records pastes (the server's src/similarity/pastes.ts LARGE_PASTE_CHARS). */
export const LARGE_PASTE_CHARS = 200;
