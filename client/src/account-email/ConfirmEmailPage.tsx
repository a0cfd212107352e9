/** The page an address change's link opens (/confirm-email?token=...): posts the token to `accountEmail.confirm` (./LinkPage.tsx). */
import { Link } from "wouter";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { email } from "../i18n/catalog/email/index.ts";
import { LinkPage } from "./LinkPage.tsx";

export default function ConfirmEmailPage() {
  const t = useT(email);
  const trpc = useTRPC();
  const confirm = useMutation(trpc.accountEmail.confirm.mutationOptions());
  return (
    <LinkPage
      title={t("confirm.title")}
      working={t("confirm.working")}
      failed={t("confirm.failed")}
      noToken={<T ns={email} k="confirm.noToken" components={{ 0: <Link href="/account" /> }} />}
      submit={(token) => confirm.mutateAsync({ token })}
    />
  );
}
