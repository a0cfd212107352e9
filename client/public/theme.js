// Restores the theme before first paint (no flash): localStorage "darkMode" holds a JSON boolean once
// the user has chosen; until then the system's preference (prefers-color-scheme) decides.
// A file of its own, not an inline script: the pages' Content-Security-Policy allows no inline script.
try {
  var saved = localStorage.getItem("darkMode");
  var dark = saved === null ? window.matchMedia("(prefers-color-scheme: dark)").matches : JSON.parse(saved) === true;
  if (dark) document.documentElement.classList.add("dark");
} catch (e) {}
