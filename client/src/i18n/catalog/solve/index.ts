/** Words of the solving page: the statement's frame, the workbench, the output panel, the per-test table and the AI review panel. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const solve = defineNamespace("solve", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
