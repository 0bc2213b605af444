import { Injectable } from '@nestjs/common';

export interface Note {
  id: number;
  title: string;
  body: string;
}

/** An ordinary Nest service: the toolkit below receives it by constructor injection. */
@Injectable()
export class NotesStore {
  private readonly notes: Note[] = [];

  add(title: string, body: string): Note {
    const note = { id: this.notes.length + 1, title, body };
    this.notes.push(note);
    return note;
  }

  search(text: string): Note[] {
    const needle = text.toLowerCase();
    return this.notes.filter((n) => `${n.title}\n${n.body}`.toLowerCase().includes(needle));
  }
}
