import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsString, Matches } from 'class-validator';
import { TOPIC_HELP, TOPIC_PATTERN } from '../../domain/topic.js';
import { DocumentConstraints } from './openapi-constraints.js';

// Here, not in domain/topic.ts: the domain stays free of DTO decorators, so a worker that reads
// topics never loads class-validator and class-transformer.
/**
 * A DTO field holding a topic, or filtering by one: lower-cased (as topics are stored), then
 * checked against TOPIC_PATTERN, which the OpenAPI document states (the swagger plugin cannot
 * read a pattern held in a constant).
 */
export const IsTopic = () =>
  applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)),
    IsString(),
    Matches(TOPIC_PATTERN, { message: `$property ${TOPIC_HELP}` }),
    DocumentConstraints({ pattern: TOPIC_PATTERN.source }),
  );
