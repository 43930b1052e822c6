import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PIXEL_GIF } from './instrument-html.js';
import { TrackingService } from './tracking.service.js';

/** Public tracking links in sent email (signed, no key). Not in the OpenAPI document. */
@ApiExcludeController()
@Controller('t')
export class TrackingController {
  constructor(private readonly tracking: TrackingService) {}

  /** The open pixel: always the 43-byte GIF, whatever the token (a broken image helps no one). */
  @Get('o/:token')
  async pixel(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    await this.tracking.open(token);
    await reply
      .status(200)
      .header('Content-Type', 'image/gif')
      .header('Cache-Control', 'no-store, private')
      .send(PIXEL_GIF);
  }

  /** A wrapped link: records the click and redirects to the original http(s) URL. */
  @Get('c/:token')
  async click(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const url = await this.tracking.click(token);
    if (!url) {
      await reply
        .status(404)
        .header('Content-Type', 'application/json')
        .header('Cache-Control', 'no-store')
        .send({ error: 'not_found', message: 'unknown link' });
      return;
    }
    await reply.status(302).header('Location', url).header('Cache-Control', 'no-store').send();
  }
}
