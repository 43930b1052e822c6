import { Module } from '@nestjs/common';
import { TwilioSmsConnector } from './twilio-sms.connector.js';

/** SMS connectors; SMS_PROVIDER picks one (the registry discovers them all). */
@Module({ providers: [TwilioSmsConnector] })
export class SmsModule {}
