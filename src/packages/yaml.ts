/** A package's YAML files read with line numbers, for errors that name the file and line. */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from "yaml";
import { PackageError, text, type PackageFiles } from "./files.ts";

export interface Yaml {
  get(key: string): unknown;
  line(key: string): number | undefined;
}

/** Parses a YAML file into a plain-object reader with line numbers; null when absent. */
export function readYaml(files: PackageFiles, name: string): Yaml | null {
  const source = text(files, name);
  if (source === null) return null;
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    throw new PackageError(name, `not valid YAML: ${e.message.split("\n")[0]}`, e.linePos?.[0]?.line);
  }
  const root = doc.contents;
  if (root !== null && !isMap(root)) throw new PackageError(name, "must be a mapping of keys to values", 1);
  const node = (key: string): YamlNode | null => {
    let cur: unknown = root;
    for (const part of key.split(".")) {
      if (!isMap(cur)) return null;
      cur = cur.get(part, true);
    }
    return (cur as YamlNode | undefined) ?? null;
  };
  return {
    get: (key) => {
      const n = node(key);
      if (n === null) return undefined;
      return isScalar(n) || isMap(n) || isSeq(n) ? n.toJSON() : undefined;
    },
    line: (key) => {
      const n = node(key);
      const offset = n?.range?.[0];
      return offset === undefined ? undefined : lineCounter.linePos(offset).line;
    },
  };
}

