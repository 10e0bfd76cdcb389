import { pino, type Logger } from 'pino';

/** Keys, secrets and tokens never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.secret',
  '*.token',
  '*.apiKey',
  '*.key',
  '*.privateKey',
  '*.clientSecret',
  '*.refreshToken',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
