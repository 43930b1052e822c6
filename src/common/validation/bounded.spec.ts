import { DECORATORS } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { CHANNELS } from '../../domain/channels.js';
import { IsText, IsWholeNumber } from './bounded.js';
import { IsChannelArray, IsIdempotencyKey } from './validators.js';
import { describeValidationErrors } from './validation.pipe.js';

// The composites must say exactly what the stacks they replace said: the same lines, in the same order.
class Stacked {
  @IsString()
  @MinLength(1)
  @MaxLength(5)
  @Matches(/^[a-z]*$/, { message: 'must be lowercase' })
  name: string;

  @IsInt({ message: 'must be 1 to 9' })
  @Min(1, { message: 'must be 1 to 9' })
  @Max(9, { message: 'must be 1 to 9' })
  count: number;

  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(CHANNELS.length)
  @IsIn(CHANNELS, { each: true, message: `each value in channels must be one of ${CHANNELS.join(', ')}` })
  channels: string[];

  @IsString()
  @Matches(/^[\x21-\x7e]{1,120}$/, { message: 'must be 1–120 printable ASCII characters without spaces' })
  key: string;
}

class Composed {
  @IsText({ min: 1, max: 5, pattern: /^[a-z]*$/, message: 'must be lowercase' })
  name: string;

  @IsWholeNumber({ min: 1, max: 9, message: 'must be 1 to 9' })
  count: number;

  @IsChannelArray()
  channels: string[];

  @IsIdempotencyKey(120)
  key: string;
}

const problems = (cls: new () => object, body: object) =>
  describeValidationErrors(validateSync(plainToInstance(cls, body)));

describe('IsText, IsWholeNumber, IsChannelArray and IsIdempotencyKey', () => {
  it.each([
    {},
    { name: '', count: 0, channels: [], key: '' },
    { name: 'TOO LONG', count: 10, channels: [...CHANNELS, 'fax', 'email'], key: 'k'.repeat(121) },
    { name: 7, count: 1.5, channels: 'email', key: 'with space' },
    { name: 'ok', count: 3, channels: ['email', 'sms'], key: 'order-A-1042' },
  ])('report %j as the decorators they compose do', (body) =>
    expect(problems(Composed, body)).toEqual(problems(Stacked, body)),
  );

  it('state their bounds for the OpenAPI schema, as the swagger plugin does for the named decorators', () => {
    const schema = (key: string) => Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, Composed.prototype, key);
    expect(schema('name')).toEqual({ minLength: 1, maxLength: 5, pattern: '^[a-z]*$' });
    expect(schema('count')).toEqual({ minimum: 1, maximum: 9 });
    expect(schema('channels')).toEqual({ uniqueItems: true });
    expect(schema('key')).toEqual({ pattern: '^[\\x21-\\x7e]{1,120}$' });
  });
});
