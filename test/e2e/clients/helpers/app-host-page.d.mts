export function startAppHostPage(): Promise<{ url: string; bytes: number; close(): Promise<void> }>;
