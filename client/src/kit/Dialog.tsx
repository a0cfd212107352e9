/**
 * A modal dialog (React Aria Components): focus moves into it and is kept
 * there, Escape and the close button close it, focus returns to what opened
 * it, the page behind is inert. Controlled by `open` / `onOpenChange`.
 */
import type { ReactNode } from "react";
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's heading (its accessible name). */
  title: ReactNode;
  children: ReactNode;
  /** Wider for editors (60 rem instead of 32 rem). */
  wide?: boolean;
  /** "alertdialog" for a confirmation. */
  role?: "dialog" | "alertdialog";
  /** Whether a click outside closes it (false for forms that would lose input). */
  dismissable?: boolean;
}

export function Dialog({ open, onOpenChange, title, children, wide, role = "dialog", dismissable = false }: DialogProps) {
  const t = useT(common);
  return (
    <ModalOverlay className="kit-overlay" isOpen={open} onOpenChange={onOpenChange} isDismissable={dismissable}>
      <Modal className={`kit-modal${wide ? " wide" : ""}`}>
        <AriaDialog className="kit-dialog" role={role}>
          {({ close }) => (
            <>
              <div className="kit-dialog-head">
                <Heading slot="title" className="kit-dialog-title">
                  {title}
                </Heading>
                <button type="button" className="icon-button" aria-label={t("kit.close")} onClick={close}>
                  <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                    <path d="M6 6l12 12M18 6L6 18" />
                  </svg>
                </button>
              </div>
              <div className="kit-dialog-body">{children}</div>
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
