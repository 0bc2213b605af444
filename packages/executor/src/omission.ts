/** The part of a text the executor cut out: 1-based, inclusive character and line ranges. */
export interface Omission {
  fromChar: number;
  toChar: number;
  totalChars: number;
  fromLine: number;
  toLine: number;
  totalLines: number;
  /** True when the cut falls on line boundaries: lines `fromLine`–`toLine` are omitted whole. */
  wholeLines: boolean;
  /** The call whose full text the host keeps (`ToolExecutor.getFullOutput`), when it does. */
  keptAs?: string;
}
