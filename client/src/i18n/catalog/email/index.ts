/** The account's e-mail address: the account page's section and the pages its links open (/verify-email, /confirm-email). */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const email = defineNamespace("email", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
