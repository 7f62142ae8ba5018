import { Module } from '@nestjs/common';
import { AdminQueues } from './admin-queues';
import { AdminController } from './admin.controller';
import { QueueDashboard } from './queue-dashboard';

@Module({ controllers: [AdminController], providers: [AdminQueues, QueueDashboard] })
export class AdminModule {}
