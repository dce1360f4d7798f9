/**
 * Rate limiting windows are aligned to the wall clock (Cloudflare's, and Miniflare's simulation of
 * `[[ratelimits]]`): a test that spends a budget and expects the next call refused is wrong by the
 * clock, not by the code, when a window begins while it runs. This runs such a test's steps again,
 * once, in that case; the second run cannot straddle a window too. Each run must spend a fresh budget
 * (a new client address, tenant or key).
 */
export async function inOneWindow<T>(periodSeconds: number, steps: () => Promise<T>): Promise<T> {
  const windowNow = () => Math.floor(Date.now() / (periodSeconds * 1000));
  for (let run = 0; run < 2; run++) {
    const started = windowNow();
    const result = await steps();
    if (windowNow() === started) return result;
  }
  throw new Error(`two runs each straddled a ${periodSeconds} s rate limiting window`);
}
