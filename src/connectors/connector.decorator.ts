import { applyDecorators, Injectable, SetMetadata } from '@nestjs/common';

export const CONNECTOR_METADATA = 'notifyd:connector';

/**
 * Marks a class as a notifyd connector. Provide it in any Nest module (yours included): the
 * registry finds it at boot through Nest's DiscoveryService, so adding a provider needs no
 * edit to notifyd's code. The class must implement `Connector`.
 */
export const NotifyConnector = () => applyDecorators(Injectable(), SetMetadata(CONNECTOR_METADATA, true));
