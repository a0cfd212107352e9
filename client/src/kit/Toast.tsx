/**
 * Toasts (React Aria Components' toast region, a landmark reachable by F6):
 * short messages announced politely, closed by their button or after
 * `timeoutMs` (never below 5 s, so they can be read). `toast(...)` queues
 * one; `<ToastRegion />` is rendered once, by the page wrapper.
 */
import { Button, Text, UNSTABLE_Toast as AriaToast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastQueue as ToastQueue, UNSTABLE_ToastRegion as AriaToastRegion } from "react-aria-components";
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

interface ToastBody {
  title: string;
  description?: string;
  tone?: "success" | "error" | "info";
}

const queue = new ToastQueue<ToastBody>({ maxVisibleToasts: 3 });

/** Shows a toast; errors stay until closed, others 6 s unless `timeoutMs` says otherwise. */
export function toast(body: ToastBody, timeoutMs?: number): void {
  const timeout = body.tone === "error" ? undefined : Math.max(5000, timeoutMs ?? 6000);
  queue.add(body, timeout ? { timeout } : {});
}

export function ToastRegion() {
  const t = useT(common);
  return (
    <AriaToastRegion queue={queue} className="kit-toast-region">
      {({ toast: item }) => (
        <AriaToast toast={item} className={`kit-toast ${item.content.tone ?? "info"}`}>
          <ToastContent className="kit-toast-content">
            <Text slot="title" className="kit-toast-title">
              {item.content.title}
            </Text>
            {item.content.description && <Text slot="description">{item.content.description}</Text>}
          </ToastContent>
          <Button slot="close" className="icon-button" aria-label={t("kit.close")}>
            ×
          </Button>
        </AriaToast>
      )}
    </AriaToastRegion>
  );
}
