import { type ClassPlace, ideApi } from '../api/ideApi'
import type {
  ClassCheckAnswer,
  ClassSummary,
  ClassView,
  EmbedConfig,
  JoinAnswer,
  JoinLinkView,
  RemoteInfo,
  SandboxSummary,
  ShareLinkRequest,
  ShareLinkView,
  SignedInAnswer,
  StackInfo,
  TemplateSummary,
} from '../contract/ideApiTypes'
import { mapped } from './sandboxError'

/**
 * The local stack the page came from (its /ide/api): the stack's sandboxes and templates, E2B
 * remotes, the embedding policy and this browser's sign-in. Every failure is a SandboxError with
 * the stack's words; one that says this browser is not signed in is of kind 'signed-out'.
 */
/** Where a class's sandboxes live: the stack's own (`{}`), or an E2B remote's. */
export type { ClassPlace }

export const localStack = {
  info: (): Promise<StackInfo> => mapped(ideApi.stack),
  sandboxes: (): Promise<SandboxSummary[]> => mapped(ideApi.sandboxes),
  templates: (): Promise<TemplateSummary[]> => mapped(ideApi.templates),
  createSandbox: (options: { templateId?: string } = {}): Promise<SandboxSummary> =>
    mapped(() => ideApi.createSandbox(options)),
  killSandbox: (sandboxId: string): Promise<void> => mapped(() => ideApi.killSandbox(sandboxId)),
  pause: (sandboxId: string): Promise<void> => mapped(() => ideApi.pause({ source: 'local', sandboxId })),
  resume: (sandboxId: string): Promise<void> =>
    mapped(async () => void (await ideApi.resume({ source: 'local', sandboxId }))),
  /** Keeps an E2B API key on the stack (never in the browser); answers the remote it made. */
  addRemote: (apiKey: string, apiUrl?: string, domain?: string): Promise<RemoteInfo> =>
    mapped(() => ideApi.addRemote(apiKey, apiUrl, domain)),
  embedPolicy: (): Promise<EmbedConfig> => mapped(ideApi.embedConfig),
  /** The teacher's side of a class (the owner's sign-in only). */
  classes: {
    list: (place: ClassPlace = {}): Promise<ClassSummary[]> => mapped(() => ideApi.classes(place)),
    view: (place: ClassPlace, name: string): Promise<ClassView> =>
      mapped(() => ideApi.classView(place, name)),
    check: (place: ClassPlace, name: string, sandboxIds?: string[]): Promise<ClassCheckAnswer> =>
      mapped(() => ideApi.checkClass(place, name, sandboxIds)),
    pauseOrResume: (place: ClassPlace, name: string, action: 'pause' | 'resume', sandboxIds?: string[]) =>
      mapped(() => ideApi.pauseOrResumeClass(place, name, action, sandboxIds)),
    extend: (place: ClassPlace, name: string, seconds: number, sandboxIds?: string[]) =>
      mapped(() => ideApi.extendClass(place, name, seconds, sandboxIds)),
    end: (place: ClassPlace, name: string): Promise<void> => mapped(() => ideApi.endClass(place, name)),
    resetLab: (place: ClassPlace, sandboxId: string): Promise<void> =>
      mapped(() => ideApi.resetLab(place, sandboxId)),
    /** A new join link for a student: their earlier ones stop working, and so does the browser that opened them. */
    newJoinLink: (place: ClassPlace, sandboxId: string): Promise<JoinLinkView> =>
      mapped(async () => {
        const old = await ideApi.joinLinks(place, sandboxId)
        await Promise.all(old.map((link) => ideApi.revokeJoinLink(link.id)))
        return ideApi.newJoinLink(place, sandboxId)
      }),
  },
  /** The E2B remotes whose keys the stack keeps. */
  remotes: (): Promise<RemoteInfo[]> => mapped(ideApi.remotes),
  /** Trades the token of the IDE's link for this browser's sign-in. */
  signIn: (token: string): Promise<void> => mapped(() => ideApi.signIn(token)),
  /** Trades a student's join link for this browser's session; answers the sandbox it opens. */
  join: (token: string): Promise<JoinAnswer> => mapped(() => ideApi.join(token)),
  /** Who this browser is signed in as. */
  signedIn: (): Promise<SignedInAnswer> => mapped(ideApi.signedIn),
  /** The owner's share links to a sandbox of the stack's: made, listed, revoked (its guest is cut off at once). */
  shareLinks: (sandboxId: string): Promise<ShareLinkView[]> => mapped(() => ideApi.shareLinks(sandboxId)),
  newShareLink: (sandboxId: string, request: ShareLinkRequest): Promise<ShareLinkView> =>
    mapped(() => ideApi.newShareLink(sandboxId, request)),
  revokeShareLink: (linkId: string): Promise<void> => mapped(() => ideApi.revokeShareLink(linkId)),
  /** Whether this browser signed in here before: a sign-in it lost is news, one it never had is not. */
  signedInBefore: (): boolean => ideApi.signedInBefore(),
}
