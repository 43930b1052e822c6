import { Controller, Get, Headers, HttpCode, Ip, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HtmlPage } from '../../common/http/html-page.decorator.js';
import { PUBLIC_FORM_MAX_BYTES, RawBody } from '../provider-webhooks/raw-body.hook.js';
import {
  acceptedLanguages,
  badScopePage,
  confirmPage,
  donePage,
  invalidPage,
  pageLanguage,
} from './unsubscribe-pages.js';
import { requestedScope } from './unsubscribe-scope.js';
import { UnsubscribeService } from './unsubscribe.service.js';

/**
 * The public unsubscribe pages behind List-Unsubscribe links (no key: the link is signed).
 * GET never changes anything (mail scanners and link previews follow links); POST does, and
 * answers the RFC 8058 one-click POST mail clients send (body `List-Unsubscribe=One-Click`,
 * accepted whatever its content type; no `?scope=`, so a link signed for a topic stops that
 * topic). `?scope=topic|marketing` is the page's buttons. Human pages, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Controller('u')
export class UnsubscribeController {
  constructor(private readonly unsubscribe: UnsubscribeService) {}

  @Get(':token')
  @HtmlPage()
  async confirm(
    @Param('token') token: string,
    @Headers('accept-language') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const claim = this.unsubscribe.verify(token);
    if (!claim) {
      reply.status(404);
      return invalidPage(pageLanguage(...acceptedLanguages(accept)));
    }
    const lang = pageLanguage(await this.unsubscribe.localeOf(claim), ...acceptedLanguages(accept));
    return confirmPage(lang, claim.address, claim.topic, `/u/${token}`);
  }

  @Post(':token')
  @HttpCode(200)
  @RawBody(PUBLIC_FORM_MAX_BYTES)
  @HtmlPage()
  async confirmed(
    @Param('token') token: string,
    @Query('scope') scope: string | undefined,
    @Headers('accept-language') accept: string | undefined,
    @Ip() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const claim = this.unsubscribe.verify(token);
    const asked = claim ? requestedScope(scope, claim) : undefined;
    if (claim && asked && 'error' in asked) {
      reply.status(400);
      return badScopePage(
        pageLanguage(await this.unsubscribe.localeOf(claim), ...acceptedLanguages(accept)),
        asked.error,
      );
    }
    const outcome =
      claim && asked && 'scope' in asked ? await this.unsubscribe.unsubscribe(claim, asked.scope, ip) : undefined;
    if (!claim || !outcome) {
      reply.status(404);
      return invalidPage(pageLanguage(...acceptedLanguages(accept)));
    }
    const lang = pageLanguage(await this.unsubscribe.localeOf(claim), ...acceptedLanguages(accept));
    return donePage(lang, claim.address, outcome);
  }
}
