/**
 * The envd feature level this runtime implements. The e2b SDK enables features by it (envd-api.md
 * §10): 0.6.4 means recursive watch, stdin control, a default user, CloseStdin, octet-stream
 * uploads, file metadata, `includeEntry` on watch events and `allowNetworkMounts`.
 */
export const envdVersion = '0.6.4'
