import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, pino, type Logger } from 'pino';
import type { LogLevel } from '../config/sections/server.config.js';
import { maskPii, REDACTED_PATHS } from './redact.js';

/**
 * Structured JSON logs through pino: one line per event with `level`, `time`, `pid`,
 * `context` and `msg`; request lines carry `reqId` (the X-Request-Id notifyd answers with).
 * Secrets are removed by path (REDACTED_PATHS) and personal data masked in messages.
 */
export function createPino(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Nest's LoggerService on pino, so that framework and notifyd messages share one format. */
export class PinoLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes (message, context) or (message, stack, context) for errors. */
  private write(
    level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal',
    message: unknown,
    params: unknown[],
  ): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    const stack = params.length > 1 && typeof params[0] === 'string' ? (params[0] as string) : undefined;
    if (message instanceof Error) {
      this.pino[level](
        { context, err: { message: maskPii(message.message), stack: message.stack && maskPii(message.stack) } },
        maskPii(message.message),
      );
      return;
    }
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    this.pino[level]({ context, ...(stack ? { stack: maskPii(stack) } : {}) }, maskPii(text));
  }
}

export function createLogger(level: LogLevel): PinoLogger {
  return new PinoLogger(createPino(level));
}
