import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error.js';
import { ConsoleSessionsService } from './console-sessions.service.js';
import { ConsoleSessionDto, ConsoleSignInDto } from './dto/console-session.dto.js';
import { clearedSessionCookie, csrfTokenFor, sessionCookie, sessionTokenFrom } from './session-cookie.js';

/**
 * Sign-in and sign-out of the console (docs/CONSOLE.md). The key is exchanged once for an
 * HttpOnly cookie; the page keeps only the CSRF token, in memory. Not in the OpenAPI document:
 * programs call the API with the key itself.
 */
@ApiExcludeController()
@Controller('console/session')
export class ConsoleSessionController {
  constructor(private readonly sessions: ConsoleSessionsService) {}

  @Post()
  @HttpCode(200)
  async signIn(
    @Body() body: ConsoleSignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionDto> {
    const session = await this.sessions.signIn(body.key);
    void reply.header('set-cookie', sessionCookie(session.token, request.protocol === 'https'));
    void reply.header('cache-control', 'no-store');
    return { role: session.role, csrf_token: csrfTokenFor(session.token), expires_at: session.expiresAt.toISOString() };
  }

  /** The page asks on load whether its cookie still holds a session, and gets the CSRF token back. */
  @Get()
  async current(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionDto> {
    const token = sessionTokenFrom(request.headers.cookie);
    const session = token ? await this.sessions.resolve(token) : undefined;
    if (!token || !session)
      throw ApiError.unauthorized('No console session: sign in with the admin or the read-only key.');
    void reply.header('cache-control', 'no-store');
    return { role: session.role, csrf_token: csrfTokenFor(token), expires_at: session.expiresAt.toISOString() };
  }

  /** Sign-out: the session row is deleted, so the cookie is refused from now on wherever it is replayed. */
  @Delete()
  @HttpCode(204)
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const token = sessionTokenFrom(request.headers.cookie);
    if (token) await this.sessions.signOut(token);
    void reply.header('set-cookie', clearedSessionCookie(request.protocol === 'https'));
  }
}
