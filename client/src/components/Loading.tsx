/** Spinners and the full-page Loading... state shown during the session check. */
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

export function Spinner({ label }: { label?: string }) {
  return <span className="spinner" role={label ? "status" : undefined} aria-label={label} aria-hidden={label ? undefined : true} />;
}

export function FullPageLoading() {
  const t = useT(common);
  return (
    <div className="full-page-loading" role="status">
      <Spinner />
      <span>{t("loading")}</span>
    </div>
  );
}
