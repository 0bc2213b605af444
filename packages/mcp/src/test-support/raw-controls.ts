/** Whether a text still holds a character a terminal or text view would act on (tab and newline are fine). */
export function hasRawControls(text: string): boolean {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(text);
}
