import { ConsoleLogger, type LogLevel as NestLogLevel } from '@nestjs/common';
import type { LogLevel } from './config/sections/server.config.js';

const LEVELS: Record<LogLevel, NestLogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  silent: [],
};

/** Structured JSON lines when not on a terminal (containers, CI); readable text on one. */
export function createLogger(level: LogLevel): ConsoleLogger {
  return new ConsoleLogger('notifyd', { logLevels: LEVELS[level], json: !process.stdout.isTTY, colors: process.stdout.isTTY });
}
