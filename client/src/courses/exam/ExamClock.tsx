/**
 * The clock of a student's exam window: the time left (hours:minutes:seconds), ticking each second, with the
 * time it ends. `role="timer"` is not announced on every tick; a polite live region says the time left at
 * 15, 5 and 1 minutes, and when the window is over.
 */
import { useEffect, useState } from "react";
import { DateTime } from "../../components/DateTime.tsx";
import { T, useT } from "../../i18n/index.tsx";
import { exam } from "../../i18n/catalog/exam/index.ts";

const ANNOUNCE_AT_MINUTES = [15, 5, 1];

function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`; // i18n-ignore: digits of a clock
}

export function ExamClock({ endsAt, onOver }: { endsAt: string; onOver?: () => void }) {
  const t = useT(exam);
  const [now, setNow] = useState(() => Date.now());
  const [said, setSaid] = useState("");
  const left = Date.parse(endsAt) - now;
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  useEffect(() => {
    const minutes = Math.ceil(left / 60_000);
    if (left <= 0) {
      setSaid(t("clock.over"));
      onOver?.();
    } else if (ANNOUNCE_AT_MINUTES.includes(minutes) && left % 60_000 > 59_000) setSaid(t("clock.announce", { minutes }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [left <= 0, Math.ceil(left / 60_000)]);
  return (
    <div className="exam-clock" data-testid="exam-clock">
      {left > 0 ? (
        <p>
          <span>{t("clock.left")}</span>{" "}
          <strong role="timer" aria-live="off" dir="ltr" className="exam-clock-time">
            {clockText(left)}
          </strong>{" "}
          <span className="muted">
            <T ns={exam} k="clock.ends" values={{ at: <DateTime value={endsAt} withZone /> }} />
          </span>
        </p>
      ) : (
        <p>
          <strong>{t("clock.over")}</strong>
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
