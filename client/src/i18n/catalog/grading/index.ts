/** Grading by people: reviews with rubrics and line comments, the comment bank, rubrics, regrade requests. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const grading = defineNamespace("grading", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
