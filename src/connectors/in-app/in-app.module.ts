import { Module } from '@nestjs/common';
import { SubscribersModule } from '../../subscribers/subscribers.module.js';
import { InAppConnector } from './in-app.connector.js';

/** IN_APP_PROVIDER=inbox (the default): the in-app inbox. */
@Module({ imports: [SubscribersModule], providers: [InAppConnector] })
export class InAppModule {}
