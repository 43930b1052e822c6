import { defineSection } from '../define-section.js';
import { envString } from '../env-helpers.js';

const KEY_HINT = 'use at least 16 random characters, e.g. the output of `openssl rand -hex 24`';

export const authSection = defineSection(
  {
    /** Full control of the instance: admin routes, all MCP tools. */
    ADMIN_API_KEY: envString({ min: 16, hint: KEY_HINT }),
    /** Operators' read-only key: GET admin routes and read-only MCP tools. */
    READONLY_API_KEY: envString({ min: 16, hint: KEY_HINT }),
    /** Signs subscriber tokens and unsubscribe/tracking links. */
    JWT_SECRET: envString({ min: 16, hint: KEY_HINT }),
  },
  (env) => ({
    adminApiKey: env.ADMIN_API_KEY,
    readonlyApiKey: env.READONLY_API_KEY,
    jwtSecret: env.JWT_SECRET,
  }),
);

export type AuthConfig = ReturnType<typeof authSection.build>;
