/** The who-is-stuck analytics screen (/assignments/:id/analytics) and the link to it from the assignment page. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const analyticsNs = defineNamespace("analytics", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
