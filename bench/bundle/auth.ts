/** Sessions + the OAuth resource server: every request needs a bearer token a JWKS verifies. */
import { jwtVerifier } from "../../src/auth/index";
import { auth } from "../../src/features/auth/index";
import { sessions } from "../../src/features/sessions/index";
import { createMcpEdge } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, {
  features: [
    sessions(),
    auth({
      resource: "https://mcp.example.com/mcp",
      authorizationServers: ["https://auth.example.com"],
      verify: jwtVerifier({ issuer: "https://auth.example.com", jwksUri: "https://auth.example.com/jwks" }),
    }),
  ],
});
export default edge.worker;
export const { McpSession } = edge.objects;
