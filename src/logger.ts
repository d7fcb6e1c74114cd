import pino from 'pino';

export function createLogger(level: string) {
  return pino({
    level,
    base: { service: 'learning-platform-api' },
    redact: ['req.headers.authorization', '*.password', '*.token', '*.refreshToken', '*.accessToken'],
  });
}
