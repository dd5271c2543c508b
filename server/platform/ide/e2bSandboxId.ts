/**
 * True for something that can be an E2B sandbox id (letters, digits and dashes, as in
 * `i3x9…` or the older `{id}-{clientID}`): safe in a path of the remote API and in a host name.
 */
export function isE2bSandboxId(value: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,127}$/i.test(value)
}
