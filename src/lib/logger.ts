/** pino loggers: JSON lines, one child per stage/source with ids as fields. */
import { type Logger, pino } from "pino";

export type { Logger };

/** A logger writing JSON lines to the given fd (2 = stderr by default, so stdout stays for results). */
export function createLogger(options: { level?: string; fd?: 1 | 2; name?: string } = {}): Logger {
  return pino(
    {
      name: options.name ?? "catalog",
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      base: undefined,
    },
    pino.destination({ fd: options.fd ?? 2, sync: true }),
  );
}

export const silentLogger: Logger = pino({ level: "silent" });
