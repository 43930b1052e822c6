import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { globalModule } from '../config/global-module.js';
import { DATABASE, type Database } from './database.js';
import { Db } from './db.js';

/**
 * Provides the DataSource opened before Nest starts (main.ts opens it and runs migrations
 * first, so that no module ever sees an unmigrated schema). Closing is main.ts's job too:
 * the pool must outlive the worker's last finalise during shutdown.
 */
@Module({})
export class DatabaseModule {
  static forRoot(database: Database): DynamicModule {
    return globalModule(DatabaseModule, [
      { provide: DATABASE, useValue: database },
      { provide: DataSource, useValue: database.dataSource },
      Db,
    ]);
  }
}
