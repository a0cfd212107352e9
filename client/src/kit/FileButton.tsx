/**
 * A button that opens the file chooser (the native file input stays hidden:
 * the button is what the keyboard and screen readers reach, named by its
 * text). `onFiles` gets the chosen files; choosing the same file again fires again.
 */
import { useRef, type ReactNode } from "react";

export interface FileButtonProps {
  children: ReactNode;
  /** Accepted types, as the input's `accept`. */
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  className?: string;
  onFiles: (files: File[]) => void;
  /** The hidden input's label (what the file is), for tests and assistive technology that reaches it. */
  inputLabel?: string;
}

export function FileButton({ children, accept, multiple, disabled, className = "btn btn-ghost btn-sm" /* i18n-ignore: CSS classes */, onFiles, inputLabel }: FileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        aria-label={inputLabel}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = "";
          if (files.length) onFiles(files);
        }}
      />
      <button type="button" className={className} disabled={disabled} onClick={() => input.current?.click()}>
        {children}
      </button>
    </>
  );
}
