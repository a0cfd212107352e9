/**
 * The interface's words (issue 34, decision 061): Lingui 5 (@lingui/core and
 * @lingui/react, ICU MessageFormat, compiled at build time) behind three calls:
 *
 * - `const t = useT(solve)` in a component: `t("submit")`, `t("testsPassed", { passed, total })`;
 *   re-renders on a locale switch, suspends (the nearest Suspense) while the
 *   namespace's messages for the active locale load.
 * - `<T ns={solve} k="rules" components={{ 0: <Link href="/rules" /> }} />`
 *   for a message with markup (`"Read <0>the rules</0> first"`): the sentence stays whole.
 * - `translate(solve, "key", values)` outside components (the active locale; no re-render).
 *
 * Namespaces are ./catalog/<name>; the active locale is ./locale.ts's.
 */
import { use, type ReactElement, type ReactNode } from "react";
import { i18n } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react";
import { noteUse, type Namespace } from "./namespace.ts";

export type { Namespace } from "./namespace.ts";
export { defineNamespace } from "./namespace.ts";

/** Values a message's placeholders take: `{count}`, `{name}`, `{when}` (already formatted text, or numbers for plurals and `{n, number}`). */
export type MessageValues = Record<string, string | number | ReactNode>;

export type Translate<K extends string> = (key: K, values?: MessageValues) => string;

type KeyOf<N> = N extends Namespace<infer K> ? K : never;

/** The namespace's messages in the active locale, as a function of the key; suspends until they are loaded. */
export function useT<N extends Namespace>(ns: N): Translate<KeyOf<N>> {
  const { i18n: active } = useLingui();
  const locale = active.locale;
  noteUse(ns);
  if (!ns.isLoaded(locale)) use(ns.load(locale));
  return (key, values) => active._(`${ns.name}.${key}`, values as Record<string, unknown>);
}

/** A message outside React (the active locale; English until its messages have loaded, which this starts). */
export function translate<N extends Namespace>(ns: N, key: KeyOf<N>, values?: MessageValues): string {
  noteUse(ns);
  if (i18n.locale && !ns.isLoaded(i18n.locale)) void ns.load(i18n.locale);
  return i18n._(`${ns.name}.${key}`, values as Record<string, unknown>);
}

/** A message with markup: `components` fill its numbered tags (`<0>…</0>`), `values` its placeholders. */
export function T<N extends Namespace>(props: { ns: N; k: KeyOf<N>; values?: MessageValues; components?: Record<string, ReactElement> }): ReactNode {
  const { i18n: active } = useLingui();
  noteUse(props.ns);
  if (!props.ns.isLoaded(active.locale)) use(props.ns.load(active.locale));
  return <Trans id={`${props.ns.name}.${props.k}`} values={props.values as Record<string, unknown>} components={props.components} />;
}
