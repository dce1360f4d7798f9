/**
 * The resource the operate server's publishing tools announce (hub-tracing.test.ts). Its own
 * module: the Worker's entry may export only handlers and classes (workerd refuses to start a
 * Worker whose main module exports a string, as `wrangler dev` and the e2e test do).
 */
export const WATCHED = "file:///operate/watched.txt";
