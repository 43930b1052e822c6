import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsString, Matches } from 'class-validator';
import { TOPIC_HELP, TOPIC_PATTERN } from '../../domain/topic.js';

// Here, not in domain/topic.ts: the domain stays free of DTO decorators, so a worker that reads
// topics never loads class-validator and class-transformer.
/** A DTO field holding a topic: lower-cased, then checked against TOPIC_PATTERN. */
export const IsTopic = () =>
  applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)),
    IsString(),
    Matches(TOPIC_PATTERN, { message: `$property ${TOPIC_HELP}` }),
  );
