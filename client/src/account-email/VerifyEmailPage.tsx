/** The page a verification link opens (/verify-email?token=...): posts the token to `accountEmail.verify` (./LinkPage.tsx). */
import { Link } from "wouter";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { email } from "../i18n/catalog/email/index.ts";
import { LinkPage } from "./LinkPage.tsx";

export default function VerifyEmailPage() {
  const t = useT(email);
  const trpc = useTRPC();
  const verify = useMutation(trpc.accountEmail.verify.mutationOptions());
  return (
    <LinkPage
      title={t("verify.title")}
      working={t("verify.working")}
      failed={t("verify.failed")}
      noToken={<T ns={email} k="verify.noToken" components={{ 0: <Link href="/account" /> }} />}
      submit={(token) => verify.mutateAsync({ token })}
    />
  );
}
