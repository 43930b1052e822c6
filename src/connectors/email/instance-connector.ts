import { Inject } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { Connector } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { type EmailDefaults, emailDefaults } from './email-defaults.js';

type ProviderConnector<Settings, C> = new (settings: Settings, defaults: EmailDefaults) => C;

/**
 * The instance's connector of an email provider (what EMAIL_PROVIDER selects): the provider's
 * connector class made with the operator's settings for it and the email defaults, as a Nest
 * provider the registry finds, named `Instance<class>`. A project's own account (forProject)
 * is the provider's class with the project's settings.
 */
export function instanceEmailConnector<Settings, C extends Connector>(
  Provider: ProviderConnector<Settings, C>,
  settingsOf: (config: AppConfig) => Settings,
): new (config: AppConfig) => C {
  @NotifyConnector()
  class InstanceConnector extends (Provider as ProviderConnector<Settings, Connector>) {
    constructor(@Inject(APP_CONFIG) config: AppConfig) {
      super(settingsOf(config), emailDefaults(config));
    }
  }
  Object.defineProperty(InstanceConnector, 'name', { value: `Instance${Provider.name}` });
  return InstanceConnector as unknown as new (config: AppConfig) => C;
}
