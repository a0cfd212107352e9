/**
 * A tiny levelled logger over the console, configured by LOG_LEVEL. Services
 * carry one instance so tests can silence or capture it.
 */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * @param level lowest level printed; `silent` prints nothing.
 * @example createLogger("info").warn("sandbox unavailable", { reason })
 */
export function createLogger(level: LogLevel): Logger {
  const min = RANK[level];
  const emit = (lvl: Exclude<LogLevel, "silent">, message: string, data?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return;
    const line = `${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} ${message}`;
    const sink = lvl === "error" ? console.error : lvl === "warn" ? console.warn : console.log;
    if (data && Object.keys(data).length) sink(line, data);
    else sink(line);
  };
  return {
    debug: (m, d) => emit("debug", m, d),
    info: (m, d) => emit("info", m, d),
    warn: (m, d) => emit("warn", m, d),
    error: (m, d) => emit("error", m, d),
  };
}
