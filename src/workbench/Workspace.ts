import { Later } from '../common/Later'
import { type Disposable, DisposableStore, toDisposable } from '../common/lifecycle'
import { retryImport } from '../common/retryImport'
import { EditorManager } from '../features/editor/EditorManager'
import { guardUnsavedEdits } from '../features/editor/guardUnsavedEdits'
import { LabController } from '../features/lab/LabController'
import { PreviewModel } from '../features/preview/PreviewModel'
import { keepScreensOnLeave } from '../features/terminal/keepScreensOnLeave'
import { TerminalInstance } from '../features/terminal/TerminalInstance'
import { TerminalManager } from '../features/terminal/TerminalManager'
import { TerminalMemory } from '../features/terminal/terminalMemory'
import { useTerminalSettings } from '../features/terminal/terminalSettings'
import type { Collaboration } from '../sandbox/collab/collaboration'
import type { Presence } from '../sandbox/collab/Presence'
import { FileWatch } from '../sandbox/fileWatch'
import type { SourceControl } from '../sandbox/git/SourceControl'
import { labSubmissions } from '../sandbox/labSubmissions'
import type { LanguageService } from '../sandbox/language/LanguageService'
import { PortWatch } from '../sandbox/portWatch'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { addressKey } from '../sandbox/sandboxAddress'
import { browserStorage } from '../ui/browserStorage'
import type { NoticeSink } from '../ui/notifications'
import { tabId } from '../ui/tabId'
import type { Theme } from '../ui/themeStore'
import type { FollowPerson } from './followPerson'
import { linkLabToEditor } from './linkLabToEditor'
import { linkLabToPreview } from './linkLabToPreview'
import { terminalLinkOpener } from './terminalLinks'

/** The others on the sandbox, and following one of them. */
export interface People {
  presence: Presence
  follow: FollowPerson
}

/** Runs `task` once the page has nothing better to do (the first render, the first file). */
function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 3_000 })
  else setTimeout(task, 1_000)
}

/** How a workspace is made. */
export interface WorkspaceOptions {
  theme: Theme
  /** Where the editor tells the user what went wrong. */
  notices: NoticeSink
  /** With the teaching lab (the full page; an embed shows none). */
  lab: boolean
  /** With code intelligence: the sandbox's language servers behind the editor (a lab may still turn it off). */
  codeIntelligence: boolean
  /** With source control: git in the sandbox for the home folder (its view, colours, the gutter). */
  sourceControl?: boolean
  /** With co-editing: open files shared live with the sandbox's other pages, this person shown to them by `name`. */
  collaboration?: { name: string; readOnly?: boolean }
}

/**
 * Everything the workbench holds for one sandbox's session, beyond its panels: the one file watch,
 * the terminals, the open files and (on the full page) the lab, made together in the order they
 * depend on each other and disposed together in the reverse order. React gets it whole.
 */
export class Workspace {
  readonly watch: FileWatch
  readonly terminals: TerminalManager
  readonly editor: EditorManager
  readonly lab: LabController | undefined
  /** Code intelligence: the sandbox's language servers and what they report (its code comes after the page renders; never where turned off). */
  readonly language = new Later<LanguageService>()
  /** Whether the workspace has code intelligence (a lab may still turn its servers off). */
  readonly codeIntelligence: boolean
  /** Source control (none where turned off): its code is fetched after the workbench renders. */
  readonly sourceControl = new Later<SourceControl>()
  /** Who else has the sandbox open, and following one of them (with co-editing, after the page renders). */
  readonly people = new Later<People>()
  /** Which of the sandbox's ports the preview pane shows. */
  readonly preview = new PreviewModel()
  /**
   * The ports the sandbox listens on, for the ports panel, the preview and the embed. Nothing to
   * dispose: it looks only while followed, and its followers (the panels, the embed) stop
   * following as they go with the workspace.
   */
  readonly ports: PortWatch
  /** Registered as each piece is made; disposed in the reverse order. */
  private readonly disposables = new DisposableStore()

  constructor(
    readonly session: SandboxSession,
    options: WorkspaceOptions,
  ) {
    this.watch = this.disposables.add(new FileWatch(session))
    this.ports = new PortWatch(
      () => session.ports(),
      () => session.getSnapshot().state.kind === 'running',
      {
        activity: session.activity,
        // Asked only when a new socket shows: no page needs it before it renders.
        findOwners: async (inodes) =>
          (await import('../sandbox/portOwners')).findPortOwners(session.processes, inodes),
      },
    )
    const openLink = terminalLinkOpener(session, this.preview, useTerminalSettings)
    this.terminals = this.disposables.add(
      new TerminalManager(session, {
        openTerminal: (record, terminalOptions) =>
          new TerminalInstance(
            session,
            record,
            // The others see who types in which terminal (presence, once co-editing is loaded).
            { ...terminalOptions, typed: (pid) => this.people.getSnapshot()?.presence.setTyping(pid) },
            useTerminalSettings,
            openLink,
          ),
        memory: new TerminalMemory(browserStorage, `sandbox-ide:terminals:${addressKey(session.address)}`),
        theme: options.theme,
        notices: options.notices,
      }),
    )
    this.disposables.add(toDisposable(keepScreensOnLeave(this.terminals)))
    this.editor = this.disposables.add(
      new EditorManager(session, {
        watch: this.watch,
        notices: options.notices,
        collaboration:
          options.collaboration && this.collaboration(session, options.collaboration, options.notices),
      }),
    )
    this.disposables.add(toDisposable(guardUnsavedEdits(this.editor)))
    // Unsaved text kept in the browser (hot exit): its code comes after the page renders.
    void retryImport(() => import('../features/editor/hotExit/startHotExit'))
      .then(({ startHotExit }) =>
        startHotExit(this.editor, session, {
          scope: addressKey(session.address),
          me: tabId(),
          notices: options.notices,
        }),
      )
      .then((hotExit) => this.disposables.add(hotExit))
    const submissions = options.lab ? labSubmissions(session.address) : undefined
    this.lab = options.lab
      ? this.disposables.add(
          new LabController(
            session,
            this.watch,
            // A graded lab's Submit saves the editor's files first when the student asks it to.
            submissions && {
              submissions,
              unsaved: {
                unsavedPaths: () =>
                  this.editor.getSnapshot().documents.flatMap((d) => (d.dirty ? [d.path] : [])),
                saveAll: () => this.editor.saveAll(),
              },
            },
          ),
        )
      : undefined
    if (this.lab) {
      this.disposables.add(toDisposable(linkLabToEditor(this.lab, this.editor)))
      this.disposables.add(toDisposable(linkLabToPreview(this.lab, this.preview)))
    }
    this.codeIntelligence = options.codeIntelligence
    if (options.codeIntelligence)
      void retryImport(() => import('./codeIntelligence')).then(({ startCodeIntelligence }) =>
        this.language.set(
          this.disposables.add(
            startCodeIntelligence(session, this.watch, this.editor, options.notices, this.lab),
          ).language,
        ),
      )
    if (options.sourceControl)
      void retryImport(() => import('./sourceControl')).then(({ startSourceControl }) =>
        this.sourceControl.set(
          this.disposables.add(startSourceControl(session, this.watch, this.editor)).scm,
        ),
      )
    // A saved file shows in the preview at once (a plain server has no live reload of its own).
    this.disposables.add(toDisposable(this.editor.onSaved(() => this.preview.reload())))
  }

  /**
   * Co-editing and presence, loaded (Yjs, the relay) when the first file opens or, at the latest,
   * once the page is idle, so the people bar shows who is here; kept until the workspace goes.
   */
  private collaboration(
    session: SandboxSession,
    { name, readOnly }: { name: string; readOnly?: boolean },
    notices: NoticeSink,
  ): () => Promise<Collaboration> {
    let loading: Promise<Collaboration> | undefined
    const load = () => {
      loading ??= Promise.all([
        retryImport(() => import('../sandbox/collab/collaboration')),
        retryImport(() => import('./followPerson')),
      ]).then(async ([{ loadCollaboration }, { FollowPerson }]) => {
        const collaboration = this.disposables.add(await loadCollaboration(session, name, { readOnly }))
        const follow = this.disposables.add(
          new FollowPerson(collaboration.presence, this.editor, (text) => notices.push('info', text)),
        )
        this.people.set({ presence: collaboration.presence, follow })
        void collaboration.presence.settled()
        return collaboration
      })
      return loading
    }
    whenIdle(() => void load())
    return load
  }

  /** Keeps what is made for the workspace later (the search, when first wanted: loadSearch.ts) to dispose with it. */
  adopt<T extends Disposable>(item: T): T {
    return this.disposables.add(item)
  }

  setTheme(theme: Theme): void {
    this.terminals.setTheme(theme)
  }

  dispose(): void {
    this.disposables.dispose()
  }
}
