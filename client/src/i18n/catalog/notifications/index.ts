/** Notifications' words: the bell, the list of notices, the switches per kind, the unsubscribe page, course announcements. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const notifications = defineNamespace("notifications", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
