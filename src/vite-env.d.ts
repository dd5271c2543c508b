interface ImportMetaEnv {
  /** Comma-separated origins that may embed the IDE where no local stack serves /ide/api/embed. */
  readonly VITE_EMBED_ALLOWED_ORIGINS?: string
  /** Of those, the origins whose commands run without asking the user. */
  readonly VITE_EMBED_TRUSTED_ORIGINS?: string
}
