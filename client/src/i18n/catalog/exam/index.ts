/** Words of the exam screens: Start, the clock, the staff's access log (client/src/courses/exam). */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const exam = defineNamespace("exam", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
