/** The `notifications` namespace's keys, as a type. */
import type en from "../i18n/catalog/notifications/en.json";

export type NotificationKey = keyof typeof en & string;
