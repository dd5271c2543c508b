/**
 * Options for the stack's HTTP servers, which carry long-lived streams (terminals, watches, a
 * StreamInput body over HTTP/1.1), so no request may be cut by a total time. What is bounded:
 * a request's headers must arrive within 10 s (a slow-loris client that sends part of them and
 * then nothing gets 408 and a closed connection, checked every second instead of Node's 30 s),
 * and an idle keep-alive connection lives as long as envd's (640 s).
 */
export const longLivedServerOptions = {
  requestTimeout: 0,
  headersTimeout: 10_000,
  connectionsCheckingInterval: 1_000,
  keepAliveTimeout: 640_000,
} as const
