/** Sessions and two-factor sign-in: the account page's two sections and the sign-in page's code step. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const security = defineNamespace("security", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
