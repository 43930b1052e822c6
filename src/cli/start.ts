import type { INestApplicationContext, LoggerService } from '@nestjs/common';

/**
 * What `serve`, `dev` and `mcp` need of main.ts's startNotifyd, passed in by src/cli.ts: the
 * commands sit below the program's entry files and import none of them (the import graph has
 * no loop, test/architecture/import-graph.spec.ts).
 */
export interface Started {
  app: INestApplicationContext;
  close(): Promise<void>;
}

export type StartNotifyd = (options?: {
  env?: NodeJS.ProcessEnv;
  listen?: boolean;
  logger?: LoggerService | false;
}) => Promise<Started>;
