import { HttpStatus, RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { ApiResponse } from '@nestjs/swagger';

/** Where @nestjs/swagger's plugin metadata (src/metadata.ts) is attached to each class. */
const METADATA_FACTORY = '_OPENAPI_METADATA_FACTORY';
/** @nestjs/swagger's reflect-metadata key for a method's responses. */
const API_RESPONSE = 'swagger/apiResponse';

/**
 * The swagger plugin knows each handler's return type, but @nestjs/swagger only uses it when
 * the handler declares no response at all; ours all declare their errors (@ApiErrors). This
 * adds the success response from the return type unless the handler declared that status.
 */
export function addPluginSuccessResponses(controllers: Type<unknown>[]): void {
  for (const controller of controllers) {
    const factory = (controller as unknown as Record<string, unknown>)[METADATA_FACTORY] as
      undefined | (() => Record<string, { type?: unknown }>);
    if (!factory) continue;
    for (const [method, meta] of Object.entries(factory())) {
      const handler = (controller.prototype as Record<string, unknown>)[method] as
        ((...args: unknown[]) => unknown) | undefined;
      if (!handler || !meta.type) continue;
      const status: number =
        Reflect.getMetadata(HTTP_CODE_METADATA, handler) ??
        (Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
      const declared = (Reflect.getMetadata(API_RESPONSE, handler) ?? {}) as Record<string, unknown>;
      if (declared[status]) continue;
      ApiResponse({ status, type: meta.type as Type<unknown>, description: 'Success' })(
        controller.prototype as object,
        method,
        Object.getOwnPropertyDescriptor(controller.prototype, method)!,
      );
    }
  }
}
