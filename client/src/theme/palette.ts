/**
 * The palette's declared foreground/background pairs: every custom property
 * of client/src/styles.css that the styles paint as text (or as a UI
 * component's colour) over another, with the WCAG 2.1 AA ratio it must reach
 * in both themes (4.5:1 text, 3:1 large text and UI components). The unit
 * test palette.test.ts reads both themes' values from styles.css and checks
 * each pair; a new colour pairing in the styles belongs here.
 */
import { AA_TEXT } from "./contrast.ts";

export interface PalettePair {
  /** Custom property names without the leading `--`. */
  fg: string;
  bg: string;
  /** The ratio to reach: AA_TEXT or AA_LARGE_OR_UI. */
  min: number;
  /** Where the pair is seen. */
  where: string;
}

const text = (fg: string, bg: string, where: string): PalettePair => ({ fg, bg, min: AA_TEXT, where });

export const PALETTE_PAIRS: PalettePair[] = [
  ...["bg", "bg-alt", "surface", "surface-2", "code-bg"].flatMap((bg) => [
    text("text", bg, "body text"), // i18n-ignore: for developers
    text("muted", bg, "secondary text (.muted, .hint, table heads)"), // i18n-ignore: for developers
    text("primary", bg, "links and ghost buttons"), // i18n-ignore: for developers
    text("danger", bg, "error text"), // i18n-ignore: for developers
    text("success", bg, "success text"), // i18n-ignore: for developers
    text("warning", bg, "warning text"), // i18n-ignore: for developers
  ]),
  text("primary", "primary-soft", "the problem-kind badge"), // i18n-ignore: for developers
  text("primary-text", "primary", "primary buttons"), // i18n-ignore: for developers
  text("primary-text", "primary-hover", "primary buttons, hovered"), // i18n-ignore: for developers
  text("on-accent", "run", "Run Code button"), // i18n-ignore: for developers
  text("on-accent", "run-hover", "Run Code button, hovered"), // i18n-ignore: for developers
  text("on-accent", "ai", "AI Review button"), // i18n-ignore: for developers
  text("on-accent", "ai-hover", "AI Review button, hovered"), // i18n-ignore: for developers
  text("on-accent", "danger", "danger buttons"), // i18n-ignore: for developers
  text("success", "success-soft", "Accepted verdict badge"), // i18n-ignore: for developers
  text("danger", "danger-soft", "failing verdict badge, error notices"), // i18n-ignore: for developers
  text("easy", "easy-soft", "EASY badge"), // i18n-ignore: for developers
  text("medium", "medium-soft", "MEDIUM badge"), // i18n-ignore: for developers
  text("hard", "hard-soft", "HARD badge"), // i18n-ignore: for developers
  text("muted", "editor-bg", "Loading editor..."), // i18n-ignore: for developers
];
