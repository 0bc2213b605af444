import { Module } from '@nestjs/common';
import { ClockTools } from './clock-tools.js';

@Module({ providers: [ClockTools] })
export class ClockModule {}
