import { Injectable } from '@nestjs/common';
import { tool, type Integer } from '@toolwright/tool';
import { NotesStore, type Note } from './notes-store.js';

/** A Nest provider whose methods are tools: discovered by metadata, no registration code. */
@Injectable()
export class NotesTools {
  constructor(private readonly store: NotesStore) {}

  /**
   * Saves a note and returns it with its id.
   * @param title A short title.
   * @param body The note's text.
   */
  @tool({ tier: 'side-effecting' })
  async addNote(title: string, body: string): Promise<Note> {
    return this.store.add(title, body);
  }

  /**
   * Finds notes whose title or body contains the text (case-insensitive).
   * @param text What to look for.
   * @param limit At most this many notes.
   */
  @tool({ tier: 'read-only' })
  async searchNotes(text: string, limit: Integer = 10): Promise<Note[]> {
    return this.store.search(text).slice(0, limit);
  }

  /** Not a tool: discovery skips methods without `@tool()`. */
  count(): number {
    return this.store.search('').length;
  }
}
