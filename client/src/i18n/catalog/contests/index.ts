/** Contests: the list, a contest's page, the editor, roles, clarifications, the scoreboard, the reveal and the balloons. */
import en from "./en.json";
import { defineNamespace } from "../../namespace.ts";
import type { Translate } from "../../index.tsx";

export const contests = defineNamespace("contests", en, import.meta.glob(["./*.json", "!./en.json"], { import: "default" }));

/** A key of this namespace's messages. */
export type ContestsKey = keyof typeof en;

/** The namespace's translate function (what `useT(contests)` returns), as helpers take it. */
export type ContestsT = Translate<ContestsKey>;
