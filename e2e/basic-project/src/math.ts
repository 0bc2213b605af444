/**
 * Adds two numbers.
 * @tool
 * @determinism pure
 * @param a First addend.
 * @param b Second addend.
 */
export async function addNumbers(a: number, b: number): Promise<number> {
  return a + b;
}
