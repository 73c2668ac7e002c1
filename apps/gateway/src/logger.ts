import pino, { type Logger } from 'pino';

/**
 * JSON logs. Credentials never reach them: request logs carry the route
 * template rather than the raw path, and these headers are redacted wherever
 * a request object is logged.
 *
 * Lines go to stdout through a 4 KiB buffer: one write per request was the
 * largest single cost of a public read under load (see docs/performance.md).
 * The buffer is flushed every second and before the process exits. A full
 * buffer is written synchronously, as pino's own default destination does:
 * an asynchronous write goes through libuv's thread pool, whose hand-offs
 * cost more than the write (about 10 µs of CPU a request on /healthz,
 * docs/performance.md "Session 6"), and a slow reader of stdout now holds the
 * server back instead of letting the buffer grow without bound.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const buffered = destination === undefined;
  const logger = pino(
    {
      level,
      base: { service: 'gateway' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true, minLength: 4096 }),
  );
  // A quiet server still shows each line within a second.
  if (buffered) setInterval(() => flushLogs(logger), 1000).unref();
  return logger;
}

/** Writes out whatever the logger still buffers; safe to call at exit. */
export function flushLogs(logger: Logger): void {
  try {
    logger.flush();
  } catch {
    // A destination without a buffer has nothing to flush.
  }
}
