/** The admin page's "Topic tags": the vocabulary's table, adding a tag, renaming, synonyms, merging and deleting. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const tagsAdmin = defineNamespace("tagsAdmin", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
