/** Spinners and the full-page Loading... state shown during the session check. */
export function Spinner({ label }: { label?: string }) {
  return <span className="spinner" role={label ? "status" : undefined} aria-label={label} aria-hidden={label ? undefined : true} />;
}

export function FullPageLoading() {
  return (
    <div className="full-page-loading" role="status">
      <Spinner />
      <span>Loading...</span>
    </div>
  );
}
