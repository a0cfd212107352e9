/**
 * The offline reviewer (./offline) writes its rules' findings in English only;
 * a learner who reads another language gets this one line in theirs first
 * (issue 34 §6: "the reviewer may stay English where a rule has no translation, saying so").
 */
import type { LocaleTag } from "../i18n/locales.ts";

const NOTE: Record<Exclude<LocaleTag, "en">, string> = {
  ar: "هذه المراجعة التلقائية (من دون نموذج ذكاء اصطناعي) متاحة باللغة الإنجليزية فقط.",
  de: "Diese automatische Prüfung (ohne KI-Modell) gibt es nur auf Englisch.",
  es: "Esta revisión automática (sin modelo de IA) solo está disponible en inglés.",
  fr: "Cette revue automatique (sans modèle d’IA) n’existe qu’en anglais.",
  ja: "この自動レビュー（AI モデルなし）は英語でのみ提供されます。",
  ko: "이 자동 리뷰(AI 모델 없음)는 영어로만 제공됩니다.",
  "pt-BR": "Esta revisão automática (sem modelo de IA) só está disponível em inglês.",
  ru: "Этот автоматический разбор (без модели ИИ) доступен только на английском языке.",
  "zh-CN": "此自动审查（未使用 AI 模型）仅提供英文版本。",
};

/** The line saying the review below is in English, in `locale` ("" for English). */
export function offlineEnglishNote(locale: LocaleTag): string {
  return locale === "en" ? "" : NOTE[locale];
}
