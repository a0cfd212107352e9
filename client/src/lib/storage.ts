/**
 * Everything the client keeps in localStorage, under the spec's keys:
 * `token` (the session JWT) and `darkMode` (a JSON boolean), plus unsaved
 * editor code per problem and language (`code:<problemId>:<language>`).
 * Storage can be unavailable (private mode, quota); every access is guarded.
 */

const TOKEN_KEY = "token";
const DARK_KEY = "darkMode";

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Quota or disabled storage: the value just is not persisted.
  }
}

function safeRemove(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing to do.
  }
}

/** @returns the stored session token, or null. */
export const getToken = (): string | null => safeGet(TOKEN_KEY);
export const setToken = (token: string): void => safeSet(TOKEN_KEY, token);
export const removeToken = (): void => safeRemove(TOKEN_KEY);

/** @returns the saved dark-mode flag; when unset, the system's preference (prefers-color-scheme); false when not a JSON boolean. */
export function getDarkMode(): boolean {
  const raw = safeGet(DARK_KEY);
  if (raw === null) return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches; // i18n-ignore: a media query
  try {
    return JSON.parse(raw) === true;
  } catch {
    return false;
  }
}
export const setDarkMode = (dark: boolean): void => safeSet(DARK_KEY, JSON.stringify(dark));

const codeKey = (problemId: string, language: string) => `code:${problemId}:${language}`;
/** @returns the unsaved code for this problem and language, or null when none was kept. */
export const getSavedCode = (problemId: string, language: string): string | null =>
  safeGet(codeKey(problemId, language));
export const saveCode = (problemId: string, language: string, code: string): void =>
  safeSet(codeKey(problemId, language), code);
