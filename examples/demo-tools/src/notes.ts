import { tool } from '@toolwright/tool';

/** A note kept by the notebook. */
export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
}

/** A small notebook: the toolkit form, with its storage injected through the constructor. */
export class Notebook {
  constructor(private readonly notes: Map<string, Note> = new Map()) {}

  /**
   * Adds a note and returns it with its new id.
   * @param title Short title, shown in listings.
   * @param body The note's text (Markdown).
   * @param tags Labels to find the note by.
   */
  @tool({ tier: 'side-effecting', group: 'edit', sideEffects: ['db-write'] })
  async addNote(title: string, body: string, tags: string[] = []): Promise<Note> {
    const note: Note = { id: `n${this.notes.size + 1}`, title, body, tags };
    this.notes.set(note.id, note);
    return note;
  }

  /**
   * Finds notes whose title or body contains the text, optionally limited to one tag.
   * @param text Text to look for (case-insensitive).
   * @param tag Only notes with this tag.
   */
  @tool({ tier: 'read-only', group: 'search', sideEffects: ['db-read'] })
  async searchNotes(text: string, tag?: string): Promise<Note[]> {
    const needle = text.toLowerCase();
    return [...this.notes.values()].filter(
      (n) => (n.title.toLowerCase().includes(needle) || n.body.toLowerCase().includes(needle)) && (!tag || n.tags.includes(tag)),
    );
  }
}
