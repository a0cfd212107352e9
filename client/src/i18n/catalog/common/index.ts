/** Words every page shares: the site header and footer, the kit's controls, verdicts, errors. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const common = defineNamespace("common", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
