import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/**
 * Serves the <notifyd-inbox> web component (web/notifyd-inbox.js, plain JavaScript shipped as
 * is). The file is found next to this module in the sources, or — from dist/ — in the
 * package's src/inbox/web/ (the Dockerfile copies that folder into the image).
 */
function loadWidget(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'notifyd-inbox.js')];
  for (let dir = here; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      candidates.push(join(dir, 'src', 'inbox', 'web', 'notifyd-inbox.js'));
      break;
    }
  }
  const found = candidates.find((path) => existsSync(path));
  if (!found)
    throw new Error(
      `notifyd-inbox.js not found (looked in ${candidates.join(', ')}): ship src/inbox/web/ with the build`,
    );
  return readFileSync(found, 'utf8');
}

@ApiExcludeController()
@Controller('inbox')
export class InboxWidgetController {
  private readonly script = loadWidget();

  /** Public: the component holds no secret; the token it is given authorises its calls. */
  @Get('notifyd-inbox.js')
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  widget(): string {
    return this.script;
  }
}
