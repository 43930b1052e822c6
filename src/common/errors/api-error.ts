import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * The one error type routes throw. It renders as `{"error": code, "message": …, …extra}`
 * with the given status; `message` says what is wrong and how to fix it.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super({ error: code, message, ...extra }, status);
  }

  static badRequest(code: string, message: string, extra?: Record<string, unknown>): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, code, message, extra);
  }
  static unauthorized(message: string): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, 'unauthorized', message);
  }
  static forbidden(message: string): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, 'forbidden', message);
  }
  static notFound(what: string, id?: string): ApiError {
    return new ApiError(
      HttpStatus.NOT_FOUND,
      'not_found',
      id ? `${what} '${id}' was not found` : `${what} was not found`,
    );
  }
  static conflict(code: string, message: string, extra?: Record<string, unknown>): ApiError {
    return new ApiError(HttpStatus.CONFLICT, code, message, extra);
  }
  static unprocessable(code: string, message: string, extra?: Record<string, unknown>): ApiError {
    return new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, code, message, extra);
  }
  static unavailable(code: string, message: string): ApiError {
    return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, code, message);
  }
}
