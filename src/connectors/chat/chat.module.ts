import { Module } from '@nestjs/common';
import { DiscordConnector } from './discord.connector.js';
import { SlackConnector } from './slack.connector.js';
import { TelegramConnector } from './telegram.connector.js';
import { ConnectorsModule } from '../connectors.module.js';

/** Chat connectors: Slack, Discord and Telegram, each its own channel. */
@Module({ imports: [ConnectorsModule], providers: [SlackConnector, DiscordConnector, TelegramConnector] })
export class ChatModule {}
