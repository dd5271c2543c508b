/**
 * The address that opens the IDE signed in: the token rides in the fragment, which browsers never
 * send to a server (nor put in a Referer or a proxy's log); the page trades it for its own
 * credentials and takes it out of the address bar (src/app/signIn.ts).
 */
export function ideLink(baseUrl: string, token: string, path = '/'): string {
  return `${baseUrl}${path}#token=${token}`
}
