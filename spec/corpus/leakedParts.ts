/** The parts of `secret` of `length` characters (default 16) that appear in `text`: `[]` when none leaked. */
export function leakedParts(text: string, secret: string, length = 16): string[] {
  const parts: string[] = [];
  for (let i = 0; i + length <= secret.length; i++) {
    const part = secret.slice(i, i + length);
    if (text.includes(part)) parts.push(part);
  }
  return parts;
}
