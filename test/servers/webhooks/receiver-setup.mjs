// The webhooks project's globalSetup: one webhook receiver (mcp-edge/testing/receiver) in the vitest process,
// on 127.0.0.1, whose URL the tests in workerd read with inject("webhookReceiver").
import { startWebhookReceiver } from "../../../src/testing/webhook-receiver.mjs";

export default async function setup({ provide }) {
  const receiver = await startWebhookReceiver();
  provide("webhookReceiver", receiver.url);
  return () => receiver.close();
}
