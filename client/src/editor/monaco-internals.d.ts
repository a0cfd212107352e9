/** Monaco's global Tab-moves-focus switch (what Ctrl+M toggles), not in its public API's types. */
declare module "monaco-editor/editor/browser/config/tabFocus.js" {
  export const TabFocus: {
    getTabFocusMode(): boolean;
    setTabFocusMode(on: boolean): void;
    onDidChangeTabFocus(listener: (on: boolean) => void): { dispose(): void };
  };
}
