/** The operator's page: status, judge queue and hosts, accounts, password reset links and the mail outbox. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const admin = defineNamespace("admin", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
