import { Injectable } from '@nestjs/common';

/**
 * The time as the rules see it. Injected wherever a decision depends on the hour (admission's
 * send windows and fair-share slots), so a unit spec can pin it instead of racing the wall
 * clock. Production uses the system clock.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  nowMs(): number {
    return Date.now();
  }
}

/** A clock a spec sets by hand. */
export class FixedClock extends Clock {
  constructor(private ms: number) {
    super();
  }

  override now(): Date {
    return new Date(this.ms);
  }

  override nowMs(): number {
    return this.ms;
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
