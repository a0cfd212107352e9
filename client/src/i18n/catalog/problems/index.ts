/** The problem list and its problem form: difficulty tabs, problem cards, the Create/Edit modal, test groups, package import and verify. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const problems = defineNamespace("problems", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
