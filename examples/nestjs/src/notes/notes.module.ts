import { Module } from '@nestjs/common';
import { NotesStore } from './notes-store.js';
import { NotesTools } from './notes-tools.js';

@Module({ providers: [NotesStore, NotesTools] })
export class NotesModule {}
