/**
 * Toasts (React Aria Components' toast region, a landmark reachable by F6):
 * short messages announced politely, closed by their button or after
 * `timeoutMs` (never below 5 s, so they can be read). `toast(...)` queues
 * one; `<ToastRegion />` is rendered once, by the page wrapper.
 */
import { Button, Text, UNSTABLE_Toast as AriaToast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastQueue as ToastQueue, UNSTABLE_ToastRegion as AriaToastRegion } from "react-aria-components";

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
  return (
    <AriaToastRegion queue={queue} className="kit-toast-region">
      {({ toast: t }) => (
        <AriaToast toast={t} className={`kit-toast ${t.content.tone ?? "info"}`}>
          <ToastContent className="kit-toast-content">
            <Text slot="title" className="kit-toast-title">
              {t.content.title}
            </Text>
            {t.content.description && <Text slot="description">{t.content.description}</Text>}
          </ToastContent>
          <Button slot="close" className="icon-button" aria-label="Close">
            ×
          </Button>
        </AriaToast>
      )}
    </AriaToastRegion>
  );
}
