import { Module } from '@nestjs/common';
import { DiscordConnector } from './discord.connector.js';
import { SlackConnector } from './slack.connector.js';
import { TelegramConnector } from './telegram.connector.js';

/** Chat connectors: Slack, Discord and Telegram, each its own channel. */
@Module({ providers: [SlackConnector, DiscordConnector, TelegramConnector] })
export class ChatModule {}
