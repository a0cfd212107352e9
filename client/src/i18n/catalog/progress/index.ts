/** The progress screens: /progress, /u/:handle, a student's progress in a course, the account page's public profile. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const progressNs = defineNamespace("progress", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
