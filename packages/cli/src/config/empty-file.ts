import path from 'node:path';

/**
 * Why an empty configuration or policy file is refused, saying where such a file comes from: the
 * shell's sandbox holds a missing `toolwright.config.json` or `toolwright.policy.json` with an empty
 * placeholder while a command runs, and a Toolwright killed outright (SIGKILL) leaves it behind.
 */
export function emptyFileProblem(file: string, text: string): string | undefined {
  if (text.trim() !== '') return undefined;
  return `${file} is empty. Toolwright's shell sandbox holds a missing ${path.basename(file)} with an empty placeholder while a command runs, and leaves it behind when it is killed outright; delete the file, or write {} in it.`;
}
