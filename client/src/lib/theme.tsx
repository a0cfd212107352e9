/**
 * Dark mode: a `dark` class on the page root (`<html>`), saved as a
 * JSON boolean under localStorage `darkMode` once the user toggles it; until
 * then the system's preference (prefers-color-scheme) decides. index.html restores
 * the class before first paint; this context keeps it in sync afterwards.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { getDarkMode, setDarkMode } from "./storage.ts";

interface ThemeValue {
  dark: boolean;
  toggle: () => void;
}

const ThemeContext = createContext<ThemeValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [dark, setDark] = useState(getDarkMode);
  useEffect(() => {
    document.documentElement.classList.toggle("dark", dark);
  }, [dark]);
  const toggle = useCallback(
    () =>
      setDark((d) => {
        setDarkMode(!d);
        return !d;
      }),
    [],
  );
  const value = useMemo(() => ({ dark, toggle }), [dark, toggle]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

/** @throws Error when used outside `<ThemeProvider>`. */
export function useTheme(): ThemeValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error("useTheme must be used within a ThemeProvider");
  return value;
}
