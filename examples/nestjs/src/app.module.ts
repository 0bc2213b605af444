import { Module } from '@nestjs/common';
import { ClockModule } from './clock/clock.module.js';
import { NotesModule } from './notes/notes.module.js';
import { ToolwrightModule } from './toolwright/toolwright.module.js';

@Module({
  imports: [ToolwrightModule.forRoot({ riskMode: 'autorun_all' }), NotesModule, ClockModule],
})
export class AppModule {}
