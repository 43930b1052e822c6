import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

/**
 * Strict: only this origin's own script and stylesheet, no inline script or style, no frames,
 * no plugins; fetches go to this origin only (the console calls the API it is served by).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** dist/console/ of the package (written by scripts/build-console.mjs at `npm run build`). */
function findAssetDir(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const assets = join(dir, 'dist', 'console');
      return existsSync(join(assets, 'index.html')) ? assets : undefined;
    }
  }
  return undefined;
}

function loadAssets(): Map<string, { type: string; body: Buffer }> {
  const dir = findAssetDir();
  const assets = new Map<string, { type: string; body: Buffer }>();
  if (!dir) return assets;
  for (const name of readdirSync(dir)) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type) assets.set(name, { type, body: readFileSync(join(dir, name)) });
  }
  return assets;
}

/** Serves the console's page and its bundle from memory, every response under CONSOLE_CSP. */
@ApiExcludeController()
@Controller('console')
export class ConsoleAssetsController {
  private readonly assets = loadAssets();

  @Get()
  page(@Res() reply: FastifyReply): void {
    this.send(reply, 'index.html');
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    this.send(reply, name === 'index.html' ? '' : name);
  }

  private send(reply: FastifyReply, name: string): void {
    void reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      .header('cache-control', 'no-cache');
    const asset = this.assets.get(name);
    if (asset) {
      void reply.type(asset.type).send(asset.body);
      return;
    }
    if (this.assets.size === 0) {
      void reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built: run `npm run build` (it writes dist/console/).');
      return;
    }
    void reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
  }
}
