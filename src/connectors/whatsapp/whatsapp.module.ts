import { Module } from '@nestjs/common';
import { MetaWhatsAppConnector } from './meta-whatsapp.connector.js';
import { TwilioWhatsAppConnector } from './twilio-whatsapp.connector.js';

/** WhatsApp connectors; WHATSAPP_PROVIDER picks one (meta or twilio). */
@Module({ providers: [MetaWhatsAppConnector, TwilioWhatsAppConnector] })
export class WhatsAppModule {}
