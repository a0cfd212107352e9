/**
 * Prometheus metrics (prom-client), named by Prometheus conventions (base
 * units, `_total` counters, `_seconds` histograms). One registry per process:
 * counters are what this process did. Queue gauges are read from the
 * database when scraped, so they show every process's work on it.
 *
 * Served at GET /metrics (src/rest/metrics.ts): off unless METRICS_TOKEN is
 * set (Bearer) or the request comes from a loopback address.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const httpRequests = new Counter({
  name: "http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status code.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});
const httpDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time to answer an HTTP request (to the response's headers; streams excluded), by method and route pattern.",
  labelNames: ["method", "route"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
const judgeDuration = new Histogram({
  name: "judge_duration_seconds",
  help: "Time from claiming a submission to its verdict, by language.",
  labelNames: ["language"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60, 120],
  registers: [registry],
});
const queueWait = new Histogram({
  name: "judge_queue_wait_seconds",
  help: "Time a submission waited in the queue before a judge claimed it, by language.",
  labelNames: ["language"] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
  registers: [registry],
});
const verdicts = new Counter({
  name: "judge_verdicts_total",
  help: "Submissions judged, by verdict and language.",
  labelNames: ["verdict", "language"] as const,
  registers: [registry],
});
const sandboxRetries = new Counter({
  name: "judge_sandbox_retries_total",
  help: "Runs retried because the sandbox itself failed (status XX).",
  registers: [registry],
});
const sandboxFailures = new Counter({
  name: "judge_sandbox_failures_total",
  help: "Runs that still failed in the sandbox after the retries (judged IE).",
  registers: [registry],
});
const aiReviews = new Counter({
  name: "ai_reviews_total",
  help: "AI reviews answered, by provider and outcome (ok, cached, failed, timeout, refused).",
  labelNames: ["provider", "outcome"] as const,
  registers: [registry],
});
const aiDuration = new Histogram({
  name: "ai_review_duration_seconds",
  help: "Time a provider took for a review (cache hits excluded), by provider.",
  labelNames: ["provider"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60],
  registers: [registry],
});

/** Records one answered request. */
export function recordHttp(method: string, route: string, status: number, seconds: number): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route }, seconds);
}

/** Records a verdict: how long judging took and how long the submission waited before it. */
export function recordJudged(language: string, verdict: string, judgeSeconds: number, waitSeconds: number | null): void {
  verdicts.inc({ verdict, language });
  judgeDuration.observe({ language }, judgeSeconds);
  if (waitSeconds !== null && waitSeconds >= 0) queueWait.observe({ language }, waitSeconds);
}

export function recordSandboxRetry(): void {
  sandboxRetries.inc();
}

export function recordSandboxFailure(): void {
  sandboxFailures.inc();
}

/** Records an AI review's outcome, and the provider's time when it was asked. */
export function recordAiReview(provider: string, outcome: "ok" | "cached" | "failed" | "timeout" | "refused", seconds?: number): void {
  aiReviews.inc({ provider, outcome });
  if (seconds !== undefined) aiDuration.observe({ provider }, seconds);
}

/** What the scrape-time gauges read. */
export interface LiveSources {
  /** Queue facts from the database (all processes). */
  queue(): Promise<{ queued: number; oldestQueuedAgeSeconds: number; inProgress: number }>;
  /** This process's compile cache counters. */
  compileCache(): { hits: number; compiles: number } | null;
}

let sources: LiveSources | null = null;

/** Binds the scrape-time gauges to a server's services (the last server started in this process wins). */
export function bindLiveSources(s: LiveSources): void {
  sources = s;
}

let queueFacts: Awaited<ReturnType<LiveSources["queue"]>> | null = null;
new Gauge({
  name: "judge_queue_length",
  help: "Submissions waiting to be judged (all processes).",
  registers: [registry],
  collect() {
    this.set(queueFacts?.queued ?? 0);
  },
});
new Gauge({
  name: "judge_queue_oldest_age_seconds",
  help: "How long the oldest queued submission has waited; 0 when the queue is empty.",
  registers: [registry],
  collect() {
    this.set(queueFacts?.oldestQueuedAgeSeconds ?? 0);
  },
});
new Gauge({
  name: "judge_jobs_in_progress",
  help: "Submissions being compiled or run right now (all processes).",
  registers: [registry],
  collect() {
    this.set(queueFacts?.inProgress ?? 0);
  },
});
new Counter({
  name: "judge_compile_cache_hits_total",
  help: "Compiles answered from the compile cache (this process).",
  registers: [registry],
  collect() {
    this.reset();
    this.inc(sources?.compileCache()?.hits ?? 0);
  },
});
new Counter({
  name: "judge_compile_cache_misses_total",
  help: "Compiles that ran the compiler (this process).",
  registers: [registry],
  collect() {
    this.reset();
    this.inc(sources?.compileCache()?.compiles ?? 0);
  },
});

/**
 * The exposition text of every metric.
 * @returns `{ text, contentType }` for the response.
 */
export async function scrape(): Promise<{ text: string; contentType: string }> {
  // The database is read once per scrape, before the gauges collect.
  queueFacts = sources ? await sources.queue() : null;
  return { text: await registry.metrics(), contentType: registry.contentType };
}
