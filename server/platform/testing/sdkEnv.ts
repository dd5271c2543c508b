/**
 * Points the official e2b SDK at a stack through the environment alone (E2B_API_URL,
 * E2B_SANDBOX_URL, E2B_API_KEY), as a user of `npm start` would; the returned function puts the
 * environment back as it was.
 */
export function pointSdkAt({ url, apiKey }: { url: string; apiKey: string }): () => void {
  const saved = { ...process.env }
  Object.assign(process.env, { E2B_API_URL: url, E2B_SANDBOX_URL: url, E2B_API_KEY: apiKey })
  return () => {
    process.env = saved
  }
}
