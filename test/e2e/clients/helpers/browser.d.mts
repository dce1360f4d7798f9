// Types for browser.mjs (no Node type definitions needed).
import type { Browser } from "playwright-core";

/** The browser's version ("156.0.8078.79"); throws with the install command when it is missing. */
export function chromiumVersion(): string;
/** Headless Chromium via playwright-core with executablePath, no sandbox, no background networking. */
export function launchChromium(extraArgs?: string[]): Promise<Browser>;
/** A tiny HTML page server on 127.0.0.1 (any path, any Host). */
export function startPageServer(): Promise<{ port: number; close(): Promise<void> }>;
