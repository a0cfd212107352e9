/**
 * `bun scripts/language-packages.ts cpp,c,java`: the Debian packages the
 * named languages need (their records' `requires`, isolate/languages), space-
 * separated, each once, for scripts/install.sh. So the language registry is
 * the only place a language's packages are written.
 * Exit 1 naming the id when one is not a registered language.
 */
import { isLanguageId, LANGUAGE_IDS, LANGUAGES } from "../isolate/languages/index.ts";

const ids = (process.argv[2] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
const unknown = ids.filter((id) => !isLanguageId(id));
if (unknown.length || !ids.length) {
  console.error(`install: ERROR: unknown language ${unknown.join(", ") || "(none given)"} in LANGUAGES (${LANGUAGE_IDS.join(", ")})`);
  process.exit(1);
}
const packages = new Set<string>();
for (const id of ids) if (isLanguageId(id)) for (const tool of LANGUAGES[id].requires) packages.add(tool.debianPackage);
console.log([...packages].join(" "));
