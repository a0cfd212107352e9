/** The site's own pages: landing, about, accessibility statement, contact, privacy policy, terms of service. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const site = defineNamespace("site", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
