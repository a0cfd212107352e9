/** The code editor's words: its name, the Tab switch's announcements, the note when the full editor cannot load. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const editor = defineNamespace("editor", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
