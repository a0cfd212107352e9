/** Topic tags' display names: the base vocabulary (db/migrations/0032_problem_bank.sql), keyed by the slug in camelCase (dynamic-programming: dynamicProgramming); see client/src/problems/tag-name.ts. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const tags = defineNamespace("tags", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
