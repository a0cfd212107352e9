/** Signing in and up, the redirect sign-in's landing page, and passwords: change, forgot, reset. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const auth = defineNamespace("auth", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
