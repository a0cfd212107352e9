/**
 * Whether Tab moves the focus instead of typing (Ctrl+M, or Ctrl+Shift+M on macOS, switches it), kept
 * for the page's lifetime and shared by the plain editor and Monaco (MonacoEditor.tsx mirrors it into
 * Monaco's own switch and back), so a switch made before the swap still holds after it.
 */
let tabMovesFocus = false;

export function getTabMovesFocus(): boolean {
  return tabMovesFocus;
}

export function setTabMovesFocus(on: boolean): void {
  tabMovesFocus = on;
}

/** Ctrl+M (Ctrl+Shift+M on macOS), Monaco's keys for the switch (editor.action.toggleTabFocusMode). */
export function isTabFocusToggle(e: { key: string; code: string; ctrlKey: boolean; shiftKey: boolean; altKey: boolean; metaKey: boolean }, mac: boolean): boolean {
  const m = e.code === "KeyM" || e.key.toLowerCase() === "m"; // i18n-ignore: a key code
  return m && e.ctrlKey && !e.altKey && !e.metaKey && e.shiftKey === mac;
}

/** Monaco's platform test (base/common/platform.ts isMacintosh). */
export const isMac = (): boolean => typeof navigator !== "undefined" && navigator.userAgent.includes("Macintosh"); // i18n-ignore: a user-agent token
