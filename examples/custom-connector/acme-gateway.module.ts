import { type DynamicModule, Module } from '@nestjs/common';
import { ACME_GATEWAY_SETTINGS, AcmeGatewayConnector, type AcmeGatewaySettings } from './acme-gateway.connector.js';

const fromEnvironment = (): AcmeGatewaySettings => ({
  url: process.env.ACME_GATEWAY_URL,
  token: process.env.ACME_GATEWAY_TOKEN,
  timeoutMs: process.env.ACME_GATEWAY_TIMEOUT_MS ? Number(process.env.ACME_GATEWAY_TIMEOUT_MS) : undefined,
});

/**
 * ACME's gateway as a Nest module. notifyd discovers the @NotifyConnector() class inside it.
 * Two ways in:
 * - NOTIFYD_MODULES=./path/to/acme-gateway.module.js (this default export, settings from env);
 * - programmatically: startNotifyd({ imports: [AcmeGatewayModule.forRoot({ url, token })] }).
 */
@Module({
  providers: [{ provide: ACME_GATEWAY_SETTINGS, useFactory: fromEnvironment }, AcmeGatewayConnector],
})
export default class AcmeGatewayModule {
  static forRoot(settings: AcmeGatewaySettings): DynamicModule {
    return {
      module: AcmeGatewayModule,
      providers: [{ provide: ACME_GATEWAY_SETTINGS, useValue: settings }, AcmeGatewayConnector],
    };
  }
}
