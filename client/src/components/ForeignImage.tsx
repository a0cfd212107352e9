/**
 * An image in Markdown anyone can write (a statement, an AI review): one of
 * this site's (a relative URL, a statement asset, a data: URL) shows as an
 * image; one from another origin is never fetched on its own (fetching it
 * would tell that site who reads the page, and when), but is offered as a
 * link the reader may choose to open. The page's Content-Security-Policy
 * (img-src 'self' data: blob:) enforces the same.
 */
import type { ComponentProps } from "react";
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

/** The host of an image URL on another origin, or null for one of this site's. */
export function foreignHost(src: string | undefined): string | null {
  if (!src) return null;
  if (src.startsWith("data:") || src.startsWith("blob:")) return null;
  try {
    const url = new URL(src, window.location.href);
    return url.origin === window.location.origin ? null : url.host;
  } catch {
    return null;
  }
}

export function ForeignImage({ src, alt }: ComponentProps<"img">) {
  const t = useT(common);
  const host = foreignHost(src);
  if (!host) return <img src={src} alt={alt ?? ""} />;
  return (
    <a className="foreign-image" href={src} target="_blank" rel="noopener noreferrer nofollow" title={t("image.foreignTitle")}>
      {alt ? t("image.foreignNamed", { alt, host }) : t("image.foreign", { host })}
    </a>
  );
}
