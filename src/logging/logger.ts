import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Level, pino, type Logger } from 'pino';
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

  /** Nest's methods, each writing at a pino level (Nest's log is pino's info, verbose is trace). */
  readonly log = this.writerAt('info');
  readonly error = this.writerAt('error');
  readonly warn = this.writerAt('warn');
  readonly debug = this.writerAt('debug');
  readonly verbose = this.writerAt('trace');
  readonly fatal = this.writerAt('fatal');

  private writerAt(level: Level): (message: unknown, ...params: unknown[]) => void {
    return (message, ...params) => this.write(level, message, params);
  }

  /** Nest passes (message, context) or (message, stack, context) for errors. */
  private write(level: Level, message: unknown, params: unknown[]): void {
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

/**
 * `flushMs` > 0: lines are buffered and written in blocks of up to 4 KiB, at least every
 * `flushMs` (LOG_FLUSH_MS), and what is left when the process exits. 0: one write per line.
 */
export function createLogger(level: LogLevel, flushMs = 0): PinoLogger {
  return new PinoLogger(createPino(level, flushMs > 0 ? bufferedStdout(flushMs) : undefined));
}

/** The size of a buffered write: about 16 request lines. */
const BLOCK_BYTES = 4096;
let stdoutBlocks: DestinationStream | undefined;

/**
 * One buffered stdout per process (every logger of the process shares it, so one exit hook).
 * Synchronous writes of whole blocks: nothing is in flight on a thread when the process exits.
 */
function bufferedStdout(flushMs: number): DestinationStream {
  if (!stdoutBlocks) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: BLOCK_BYTES, periodicFlush: flushMs });
    process.once('exit', () => {
      try {
        destination.flushSync();
      } catch {
        // stdout closed under us (EPIPE): nothing left to write to
      }
    });
    stdoutBlocks = destination;
  }
  return stdoutBlocks;
}
