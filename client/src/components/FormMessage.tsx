/** A form's outcome line: success as a polite status, an error as an alert (read out at once). */
export interface FormNotice {
  kind: "success" | "error";
  text: string;
}

export function FormMessage({ notice }: { notice: FormNotice | null }) {
  if (!notice) return null;
  return (
    <p className={`alert ${notice.kind === "success" ? "alert-success" : "alert-error"}`} role={notice.kind === "error" ? "alert" : "status"}>
      {notice.text}
    </p>
  );
}
