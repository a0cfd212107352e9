// Restores dark mode before first paint (no flash): localStorage "darkMode" holds a JSON boolean.
// A file of its own, not an inline script: the pages' Content-Security-Policy allows no inline script.
try {
  if (JSON.parse(localStorage.getItem("darkMode") || "false") === true) document.documentElement.classList.add("dark");
} catch (e) {}
