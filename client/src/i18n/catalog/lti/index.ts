/** The LMS link (LTI 1.3): a course's LMS section, the deep-linking activity picker, the admin's platform registrations. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const lti = defineNamespace("lti", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
