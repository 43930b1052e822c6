import { ApiProperty } from '@nestjs/swagger';

/** Every error response: a stable machine code and a sentence that says how to fix it. */
export class ErrorDto {
  @ApiProperty({ description: 'Stable machine-readable error code', example: 'validation_failed' })
  error: string;

  @ApiProperty({
    description: 'What is wrong and how to fix it',
    example: 'priority must be critical, high, normal, low, bulk or a number from 0 to 100',
  })
  message: string;
}
