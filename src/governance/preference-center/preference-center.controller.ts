import { Controller, Get, Headers, HttpCode, Ip, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HtmlPage } from '../../common/http/html-page.decorator.js';
import { PUBLIC_FORM_MAX_BYTES, RawBody, rawBodyOf } from '../provider-webhooks/raw-body.hook.js';
import { acceptedLanguages, pageLanguage } from '../unsubscribe/unsubscribe-pages.js';
import { cellValue, invalidPreferencesPage, PREFERENCE_PAGE_CSP, preferencesPage } from './preference-center-pages.js';
import { PreferenceCenterService, type PreferenceView } from './preference-center.service.js';
import { gridVersion } from './preference-grid.js';

/**
 * A subscriber's preference page behind `{{ preferences_url }}` (no key: the link is signed and
 * is the capability, so the form needs no other CSRF token). GET only renders (mail scanners and
 * link previews follow links); the form's POST changes the switches it shows. The form's action
 * is the bare token, relative to /p/, so it works behind a proxy serving notifyd under a path.
 * Human pages, so not in the OpenAPI document.
 */
/** The page's headers: its own CSP (the form posts back here) and no Referer carrying the token out. */
const PreferencePage = () =>
  HtmlPage({ 'Content-Security-Policy': PREFERENCE_PAGE_CSP, 'Referrer-Policy': 'no-referrer' });

@ApiExcludeController()
@Controller('p')
export class PreferenceCenterController {
  constructor(private readonly center: PreferenceCenterService) {}

  @Get(':token')
  @PreferencePage()
  async show(
    @Param('token') token: string,
    @Headers('accept-language') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const view = await this.viewOf(token);
    if (!view) return this.invalid(reply, accept);
    return preferencesPage(this.language(view, accept), view.grid, gridVersion(view.grid), token);
  }

  /**
   * The form: `v` (the grid version the page was drawn for) and one `on=<channel> <topic>` per
   * checked box; every switchable cell not named is off. A form drawn for another grid (topics
   * or channels changed meanwhile, or a bare POST) changes nothing and shows the page again.
   */
  @Post(':token')
  @HttpCode(200)
  @RawBody(PUBLIC_FORM_MAX_BYTES)
  @PreferencePage()
  async save(
    @Param('token') token: string,
    @Headers('accept-language') accept: string | undefined,
    @Ip() ip: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const view = await this.viewOf(token);
    if (!view) return this.invalid(reply, accept);
    const lang = this.language(view, accept);
    const form = new URLSearchParams(rawBodyOf(request).raw.toString('utf8'));
    const version = gridVersion(view.grid);
    if (form.get('v') !== version) {
      reply.status(409);
      return preferencesPage(lang, view.grid, version, token, 'stale');
    }
    const on = new Set(form.getAll('on'));
    const wanted = view.grid.cells
      .filter((c) => c.switchable)
      .map((c) => ({ channel: c.channel, topic: c.topic, enabled: on.has(cellValue(c.channel, c.topic)) }));
    const after = await this.center.change(view, wanted, { actor: 'preference_center', ip: ip ?? null });
    return preferencesPage(lang, after.grid, gridVersion(after.grid), token, 'saved');
  }

  private async viewOf(token: string): Promise<PreferenceView | undefined> {
    const claim = this.center.verify(token);
    return claim && (await this.center.viewOfClaim(claim));
  }

  private language(view: PreferenceView, accept: string | undefined): string {
    return pageLanguage(view.subscriber.locale, ...acceptedLanguages(accept));
  }

  private invalid(reply: FastifyReply, accept: string | undefined): string {
    reply.status(404);
    return invalidPreferencesPage(pageLanguage(...acceptedLanguages(accept)));
  }
}
