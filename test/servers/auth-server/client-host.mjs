// The clients' side of Client ID Metadata Documents, as a Worker of its own: every fetch the
// authorization server makes leaves through this Worker (miniflare's outboundService), which
// serves a few metadata documents at https://app.example.test/... and counts what it was asked.
const REDIRECT = "http://127.0.0.1:9/oauth/callback";
let fetched = [];

function doc(url, extra = {}) {
  return { client_id: url, client_name: "CIMD Test App", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", ...extra };
}

function json(value, headers = {}) {
  return new Response(JSON.stringify(value), { headers: { "Content-Type": "application/json", ...headers } });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/__fetched") return json(fetched);
    if (url.pathname === "/__reset") {
      fetched = [];
      return json([]);
    }
    fetched.push(request.url);
    switch (url.pathname) {
      case "/client.json":
        return json(doc(request.url), { "Cache-Control": "public, max-age=300" });
      case "/uncached.json":
        return json(doc(request.url), { "Cache-Control": "no-store" });
      case "/other-id.json":
        return json(doc("https://app.example.test/client.json"));
      case "/huge.json":
        return json(doc(request.url, { client_name: "x".repeat(6 * 1024) }));
      default:
        return new Response("not found", { status: 404 });
    }
  },
};
