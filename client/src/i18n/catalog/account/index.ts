/** The account page: who you are, your sign-in methods, linking a provider. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const account = defineNamespace("account", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
