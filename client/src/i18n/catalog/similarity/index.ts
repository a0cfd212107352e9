/** The similarity screens (staff, jury): the reports of an assignment or contest, one report, and a pair side by side. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const similarity = defineNamespace("similarity", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
