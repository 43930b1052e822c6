import { DECORATORS } from '@nestjs/swagger';

/** The schema keywords a composite validation decorator states (the ones the swagger plugin reads). */
export interface OpenApiConstraints {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  /** The values a field takes, where they are a closed set. */
  enum?: readonly string[];
}

/**
 * Writes a composite decorator's bounds into the property's OpenAPI metadata. The swagger
 * plugin (`classValidatorShim`) finds MaxLength, Min, Matches… only by their names on the
 * property, so a decorator that wraps them must say them itself, or the document loses them.
 * Not `ApiProperty`: that would also list the property ahead of its neighbours (the plugin's
 * metadata lists every property later, in declaration order), reordering the schema. The
 * plugin's own keys (type, description, example, required) are merged in first when the
 * document is built, so the bounds keep the place they had.
 */
export function DocumentConstraints(constraints: OpenApiConstraints): PropertyDecorator {
  const stated = Object.fromEntries(Object.entries(constraints).filter(([, value]) => value !== undefined));
  return (target, key) => {
    const current = (Reflect.getOwnMetadata(DECORATORS.API_MODEL_PROPERTIES, target, key) ?? {}) as object;
    Reflect.defineMetadata(DECORATORS.API_MODEL_PROPERTIES, { ...current, ...stated }, target, key);
  };
}
