/**
 * The demo Worker, its session and hub classes logging each construction: an object whose
 * constructor runs again on the next event was asleep (evicted) in between.
 */
import worker, { McpHub as DemoHub, McpSession as DemoSession } from "../../../src/demo/worker";

export default worker;
export { McpTask, McpUser } from "../../../src/demo/worker";

type Ctor = new (ctx: DurableObjectState, env: unknown) => object;

export class McpSession extends (DemoSession as unknown as Ctor) {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    console.log(`constructed session ${ctx.id.toString()}`);
  }
}

export class McpHub extends (DemoHub as unknown as Ctor) {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    console.log(`constructed hub ${ctx.id.toString()}`);
  }
}
