/** Courses and assignments: my courses, joining, a course, its settings and roster, assignments, the editor, the gradebook. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const courses = defineNamespace("courses", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
