import { WorkspaceError } from './workspace-error.js';

/**
 * Characters a created name may not hold: bidirectional controls (U+202A–U+202E, U+2066–U+2069,
 * U+200E, U+200F, U+061C), which make `txt.exe` display as `exe.txt`; the line and paragraph
 * separators (U+2028, U+2029); and C1 controls (U+0080–U+009F, terminal escapes such as CSI).
 */
const DECEPTIVE = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029\u0080-\u009f]/u;

/** A lone UTF-16 surrogate: encoded it becomes U+FFFD, so two different strings would name one file. */
export function isWellFormed(text: string): boolean {
  const native = (text as string & { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(text) : !/\p{Cs}/u.test(text);
}

/** Refuses a path holding a lone surrogate: it cannot be encoded, and would alias another name. */
export function checkWellFormedPath(input: string): void {
  if (!isWellFormed(input)) {
    throw new WorkspaceError(
      'invalid_path',
      `The path ${JSON.stringify(input)} contains a lone UTF-16 surrogate, which no file name can hold (it would be replaced by U+FFFD and name another file).`,
      JSON.stringify(input),
    );
  }
}

/** The first deceptive character in a text (see `DECEPTIVE`) as `U+XXXX`, or undefined. */
export function deceptiveCharacter(text: string): string | undefined {
  const found = DECEPTIVE.exec(text);
  return found ? `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

/** Refuses a name about to be created that holds a deceptive character (see `DECEPTIVE`). */
export function checkNewName(name: string, shown: string): void {
  checkWellFormedPath(name);
  const found = DECEPTIVE.exec(name);
  if (found) {
    const code = `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new WorkspaceError(
      'invalid_path',
      `The name ${JSON.stringify(name)} in ${JSON.stringify(shown)} contains ${code}, an invisible control character that changes how names are displayed; new files and directories may not contain it.`,
      JSON.stringify(shown),
    );
  }
}

/** Refuses text to be written that holds a lone surrogate, instead of silently writing U+FFFD. */
export function checkWellFormedContent(text: string, what: string, shown: string): void {
  if (!isWellFormed(text)) {
    const index = /\p{Cs}/u.exec(text)?.index ?? 0;
    throw new WorkspaceError(
      'invalid_content',
      `${what} contains a lone UTF-16 surrogate (at character ${index}), which is not valid text and cannot be written as UTF-8; nothing was written to '${shown}'.`,
      shown,
    );
  }
}
