/**
 * The test client's SSE reader: the JSON of each `data:` event of a response body, in order;
 * `cancel()` ends the read from outside (a listen stream the test closes), so nothing stays open.
 */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<string> | undefined;
  #buffer = "";
  #done = false;

  constructor(response: Response) {
    this.#reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next event's JSON, or undefined when the stream ended. */
  async read(): Promise<unknown> {
    for (;;) {
      const end = this.#buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data.length > 0) return JSON.parse(data);
        continue;
      }
      if (this.#done || !this.#reader) return undefined;
      const { value, done } = await this.#reader.read();
      if (done) this.#done = true;
      else this.#buffer += value.replace(/\r\n?/g, "\n");
    }
  }

  async cancel(): Promise<void> {
    this.#done = true;
    await this.#reader?.cancel().catch(() => undefined);
  }
}
