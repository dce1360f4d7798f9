/** Vite's `?raw` imports (a file's text), used to read the docs pages' tables in tests. */
declare module "*?raw" {
  const text: string;
  export default text;
}
