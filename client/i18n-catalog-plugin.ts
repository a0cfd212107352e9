/**
 * Compiles the message catalogues (client/src/i18n/catalog/<ns>/<locale>.json,
 * ICU MessageFormat) to Lingui's compiled form at build time, so the client
 * ships no message parser (decision 061). An import of a catalogue resolves
 * to a virtual module `export default { key: compiled }`. A message that does
 * not parse fails the build, naming the file and key.
 */
import type { Plugin } from "vite";
import { readFileSync } from "node:fs";
import { compileMessageOrThrow } from "@lingui/message-utils/compileMessage";

const CATALOG = /[\\/]client[\\/]src[\\/]i18n[\\/]catalog[\\/][^\\/]+[\\/][A-Za-z-]+\.json$/;
const PREFIX = "\0i18n-catalog:";

/** The module text for one catalogue file. */
export function compileCatalogModule(path: string): string {
  const raw = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const compiled: Record<string, unknown> = {};
  for (const [key, message] of Object.entries(raw)) {
    if (typeof message !== "string") throw new Error(`${path}: "${key}" is not a string`);
    try {
      compiled[key] = compileMessageOrThrow(message);
    } catch (err) {
      throw new Error(`${path}: "${key}" is not valid ICU MessageFormat: ${(err as Error).message}`);
    }
  }
  return `export default ${JSON.stringify(compiled)};`;
}

export function i18nCatalogPlugin(): Plugin {
  return {
    name: "i18n-catalog",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!source.endsWith(".json") || source.startsWith(PREFIX)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !CATALOG.test(resolved.id.split("?")[0]!)) return null;
      return PREFIX + resolved.id.split("?")[0]! + ".js";
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const path = id.slice(PREFIX.length, -".js".length);
      this.addWatchFile(path);
      return compileCatalogModule(path);
    },
  };
}
