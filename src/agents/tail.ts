/** Keeps the last `limit` characters of a stream of text without holding all of it. */
export class TextTail {
  private text = '';
  private dropped = false;

  constructor(private readonly limit: number) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * this.limit) {
      this.text = this.text.slice(-this.limit);
      this.dropped = true;
    }
  }

  toString(): string {
    if (this.text.length > this.limit) return this.text.slice(-this.limit);
    return this.text;
  }

  get truncated(): boolean {
    return this.dropped || this.text.length > this.limit;
  }
}

export function tail(text: string, limit: number): string {
  return text.length > limit ? text.slice(-limit) : text;
}
