import { Controller, Get, Headers, HttpCode, Ip, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { UnsubscribeClaim } from '../../common/unsubscribe/unsubscribe-token.js';
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
    if (!claim) return this.invalid(reply, accept);
    return confirmPage(await this.language(claim, accept), claim.address, claim.topic, `/u/${token}`);
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
      return badScopePage(await this.language(claim, accept), asked.error);
    }
    const outcome =
      claim && asked && 'scope' in asked ? await this.unsubscribe.unsubscribe(claim, asked.scope, ip) : undefined;
    if (!claim || !outcome) return this.invalid(reply, accept);
    return donePage(await this.language(claim, accept), claim.address, outcome);
  }

  /** The recipient's own language first, then the browser's. */
  private async language(claim: UnsubscribeClaim, accept: string | undefined): Promise<string> {
    return pageLanguage(await this.unsubscribe.localeOf(claim), ...acceptedLanguages(accept));
  }

  /** A link that does not verify (or names no one now): 404, in the browser's language. */
  private invalid(reply: FastifyReply, accept: string | undefined): string {
    reply.status(404);
    return invalidPage(pageLanguage(...acceptedLanguages(accept)));
  }
}
