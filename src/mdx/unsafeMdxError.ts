/**
 * Thrown when the gate refuses a file: its message is the reason the article shows. Apart from the
 * gate, so a caller can recognise it without loading the MDX parser (docs/memory.md).
 */
export class UnsafeMdxError extends Error {
  constructor(reason: string) {
    super(`Inkstream refused its own output: ${reason}`);
    this.name = 'UnsafeMdxError';
  }
}
