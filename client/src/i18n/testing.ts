/**
 * For bun tests of client modules that translate: catalogues imported outside
 * the Vite build are raw ICU text, so Lingui compiles them at run time here
 * (the build ships them compiled); English is made active.
 *
 * Bun has no `import.meta.glob` (a Vite feature), which each catalogue's
 * index.ts calls for its other locales: a Bun plugin registered here turns
 * that call into the same map of loaders ("./de.json" → its messages). Bun
 * loads a file's static imports before running any of them, so the plugin
 * must be registered before a test file is loaded: bunfig.toml preloads this
 * file for every test (a test may still import it first, as before).
 */
import { plugin } from "bun";
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { i18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";

plugin({
  name: "catalogue-glob",
  setup(build) {
    build.onLoad({ filter: /[\\/]i18n[\\/]catalog[\\/][^\\/]+[\\/]index\.ts$/ }, async (args) => {
      const source = await Bun.file(args.path).text();
      const loaders = readdirSync(dirname(args.path))
        .filter((f) => f.endsWith(".json") && f !== "en.json")
        .map((f) => `${JSON.stringify(`./${f}`)}: () => import(${JSON.stringify(`./${f}`)}).then((m) => m.default)`);
      return { contents: source.replace(/import\.meta\.glob\([^)]*\)/, `({ ${loaders.join(", ")} })`), loader: "ts" };
    });
  },
});

i18n.setMessagesCompiler(compileMessage);
if (!i18n.locale) {
  i18n.load("en", {}); // the namespaces add theirs as test files import them
  i18n.activate("en");
}
