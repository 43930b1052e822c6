import { Module } from '@nestjs/common';
import { TelnyxSmsConnector } from './telnyx-sms.connector.js';
import { TwilioSmsConnector } from './twilio-sms.connector.js';

/** SMS connectors; SMS_PROVIDER picks one (the registry discovers them all). */
@Module({ providers: [TwilioSmsConnector, TelnyxSmsConnector] })
export class SmsModule {}
