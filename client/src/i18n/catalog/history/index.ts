/** Words of My Submissions (the caller's submission history). */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const history = defineNamespace("history", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
