/** Pools (a problem per student) and late days: the editor's slots, the draw for staff, the late-day control, the gradebook's columns, the course's allowance. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";

export const pools = defineNamespace("pools", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));
