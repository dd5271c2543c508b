import { Suspense, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { noLabSnapshot } from '../features/lab/LabController'
import { StatusBar } from '../features/statusbar/StatusBar'
import { TerminalEchoStatus } from '../features/terminal/TerminalEchoStatus'
import { SandboxToolbar } from '../features/toolbar/SandboxToolbar'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { addressKey } from '../sandbox/sandboxAddress'
import { FocusRequest } from '../ui/FocusRequest'
import { lazyNamed } from '../ui/lazyNamed'
import { type Theme, type ThemeChoice, useThemeStore } from '../ui/themeStore'
import { useExternalStore } from '../ui/useExternalStore'
import { useOpenedOnce } from '../ui/useOpenedOnce'
import { useWorkspace } from '../workbench/useWorkspace'
import { viewKeys } from '../workbench/viewKeys'
import { WorkbenchLayout } from '../workbench/WorkbenchLayout'
import type { Workspace } from '../workbench/Workspace'
import { workbenchCommands } from './commands'
import { labCommands } from './labCommands'
import { languageCommands } from './languageCommands'
import { useLayoutStore, usePanelVisibility } from './layoutStore'
import { navigate } from './route'
import { CallerContext, useOneSandboxOnly, useViewOnly } from './signIn'
import { useGlobalShortcuts } from './useGlobalShortcuts'

// Fetched when first wanted: the palette (cmdk and its dialog), a lab's panel, code intelligence's status.
const CommandPalette = lazyNamed(() => import('./CommandPalette'), 'CommandPalette')
const LabSide = lazyNamed(() => import('./LabSide'), 'LabSide')
const LanguageStatus = lazyNamed(() => import('../features/statusbar/LanguageStatus'), 'LanguageStatus')
const PeopleBar = lazyNamed(() => import('../features/presence/PeopleBar'), 'PeopleBar')
const ShareDialog = lazyNamed(() => import('../features/share/ShareDialog'), 'ShareDialog')

const noLab = { subscribe: () => () => {}, getSnapshot: () => noLabSnapshot }
const noLanguage = { subscribe: () => () => {}, getSnapshot: () => undefined }
const noGit = noLanguage
const noFollow = noLanguage

/** The full workbench: toolbar, the panels (remembered per sandbox), status bar and command palette. */
export function Workbench({ session, theme }: { session: SandboxSession; theme: Theme }) {
  const who = useContext(CallerContext)
  const workspace = useWorkspace(session, theme, {
    lab: true,
    codeIntelligence: true,
    sourceControl: true,
    collaboration: {
      name: who?.role === 'student' ? who.student : who?.role === 'guest' ? who.name : 'Owner',
      readOnly: who?.role === 'guest' && who.rights === 'view',
    },
  })
  if (!workspace) return null
  return <FullWorkbench workspace={workspace} theme={theme} />
}

function FullWorkbench({ workspace, theme }: { workspace: Workspace; theme: Theme }) {
  const { session, terminals, editor, lab, sourceControl } = workspace
  const language = useExternalStore(workspace.language)
  const layoutKey = addressKey(session.address)
  const visibility = usePanelVisibility(layoutKey)
  const snap = useExternalStore(session)
  const [paletteOpen, setPaletteOpen] = useState(false)
  const paletteWanted = useOpenedOnce(paletteOpen)
  const themeChoice = useThemeStore((s) => s.choice)
  const setTheme = useThemeStore((s) => s.setChoice)
  const toggle = useLayoutStore((s) => s.toggle)
  const labSnap = useExternalStore(lab ?? noLab)
  const languageSnap = useExternalStore(language ?? noLanguage)
  const people = useExternalStore(workspace.people)
  // The owner in a student's class sandbox is their teacher, and shown to them so.
  useEffect(() => {
    if (snap.student && people) people.presence.setName('Teacher')
  }, [snap.student, people])
  const following = useExternalStore(people?.follow ?? noFollow)
  const [problemsFocus] = useState(() => new FocusRequest())
  const [scmRequests] = useState(() => ({ commit: new FocusRequest() }))
  // The sidebar's views (the activity bar's), their shortcuts and palette entries come after the page renders.
  const [views, setViews] = useState<typeof import('./viewActions')>()
  useEffect(() => {
    void import('./viewActions').then(setViews)
  }, [])
  const actions = useMemo(
    () => views?.viewActions(workspace, layoutKey, visibility.explorer, () => toggle(layoutKey, 'explorer')),
    [views, workspace, layoutKey, visibility.explorer, toggle],
  )
  // A view's key pressed before their code is there is done when it arrives.
  const [early] = useState(() => ({ action: undefined as string | undefined }))
  const earlyKeys = useMemo(
    () =>
      viewKeys.map(({ action, ...key }) => ({
        ...key,
        run: () => {
          early.action = action
        },
      })),
    [early],
  )
  useEffect(() => {
    if (!actions || !early.action) return
    actions.run(early.action)
    early.action = undefined
  }, [actions, early])
  const scm = useExternalStore(sourceControl)
  const scmSnap = useExternalStore(scm ?? noGit)
  // Source control's palette entries come with its code, after the page renders.
  const [git, setGit] = useState<typeof import('./gitCommands')>()
  useEffect(() => {
    if (scm) void import('./gitCommands').then(setGit)
  }, [scm])
  // Ctrl+Shift+M: the sidebar shows if hidden, and its Problems panel takes the keyboard (once it is there).
  const showProblems = useCallback(() => {
    actions?.showView('explorer', { focus: false })
    problemsFocus.request()
  }, [actions, problemsFocus])
  // Ctrl+Shift+G: the sidebar shows if hidden, and its Source Control view takes the keyboard.
  const showScm = useCallback(() => actions?.showView('scm'), [actions])
  // A student's or a guest's sign-in opens this sandbox only: no way to the picker.
  const oneSandboxOnly = useOneSandboxOnly()
  // A view-only guest types nowhere: the editor, the terminals and the explorer change nothing.
  const viewOnly = useViewOnly()
  useEffect(() => {
    if (!viewOnly) return
    terminals.setReadOnly(true)
    const lift = editor.addReadOnlyRule(() => 'You joined with a view-only share link.')
    return () => {
      lift()
      terminals.setReadOnly(false)
    }
  }, [viewOnly, editor, terminals])
  // The owner shares a sandbox of the stack's (the stack holds back its token from guests).
  const caller = useContext(CallerContext)
  const mayShare = caller?.role === 'owner' && session.address.source === 'local'
  const [shareOpen, setShareOpen] = useState(false)
  const shareWanted = useOpenedOnce(shareOpen)
  // biome-ignore lint/correctness/useExhaustiveDependencies: commands follow the session's, the lab's and the language servers' state
  const commands = useMemo(
    () => [
      ...workbenchCommands(session, layoutKey, terminals, () => setPaletteOpen(true), editor).filter(
        (command) => !(oneSandboxOnly && command.id === 'sandbox.switch'),
      ),
      ...labCommands(lab),
      ...(people
        ? [
            {
              id: 'people.askToFollow',
              title: 'People: Ask Everyone to Follow Me',
              enabled: true,
              run: () => people.presence.askToFollow(),
            },
          ]
        : []),
      ...languageCommands(language, showProblems),
      ...(actions?.commands() ?? []),
      ...(git?.gitCommands(scm, showScm, () => {
        showScm()
        scmRequests.commit.request()
      }) ?? []),
    ],
    [
      session,
      layoutKey,
      terminals,
      snap,
      editor,
      lab,
      labSnap,
      oneSandboxOnly,
      language,
      languageSnap,
      people,
      showProblems,
      git,
      scm,
      scmSnap,
      showScm,
      scmRequests,
      actions,
    ],
  )
  const shortcuts = useMemo(
    () => [
      { key: 'p', ctrl: true, shift: true, run: () => setPaletteOpen((open) => !open) },
      // The sidebar's views' own (Ctrl+Shift+E, F, G, H, Ctrl+P, Ctrl+T): kept until their code is there.
      ...(actions?.shortcuts ?? earlyKeys),
      { key: '`', ctrl: true, run: () => toggle(layoutKey, 'terminal') },
      { key: '~', ctrl: true, shift: true, run: () => terminals.create() },
      { key: 'PageDown', ctrl: true, run: () => terminals.cycle(1) },
      { key: 'PageUp', ctrl: true, run: () => terminals.cycle(-1) },
      { key: 's', ctrl: true, alt: true, run: () => void editor.saveAll() },
      ...(language ? [{ key: 'm', ctrl: true, shift: true, run: showProblems }] : []),
    ],
    [layoutKey, toggle, terminals, editor, language, showProblems, actions, earlyKeys],
  )
  useGlobalShortcuts(shortcuts)

  return (
    <div className="workbench">
      {/* The toolbar and what it has to say are one row of the workbench's grid. */}
      <div>
        <SandboxToolbar session={session}>
          {!oneSandboxOnly && (
            <button type="button" onClick={() => navigate('/sandbox')}>
              Sandboxes
            </button>
          )}
          {people && (
            <Suspense fallback={null}>
              <PeopleBar
                presence={people.presence}
                following={following}
                onFollow={(page) => people.follow.toggle(page)}
                onAskToFollow={() => people.presence.askToFollow()}
              />
            </Suspense>
          )}
          {viewOnly && (
            <span className="view-only-badge" title="This share link is view-only: you can watch, not change">
              View only
            </span>
          )}
          {mayShare && (
            <button type="button" onClick={() => setShareOpen(true)} aria-haspopup="dialog">
              Share
            </button>
          )}
          <button type="button" onClick={() => setPaletteOpen(true)} aria-keyshortcuts="Control+Shift+P">
            Commands
          </button>
          <label className="theme-switch">
            <span className="visually-hidden">Theme</span>
            <select
              value={themeChoice}
              onChange={(e) => setTheme(e.target.value as ThemeChoice)}
              aria-label="Theme"
            >
              <option value="system">System theme</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
        </SandboxToolbar>
        {snap.state.kind === 'signed-out' && (
          <p className="signed-out" role="alert">
            {caller?.role === 'guest'
              ? 'This share link no longer opens the sandbox: it was revoked, or it expired. Ask whoever shared it for a new link.'
              : `This browser is signed out: ${snap.state.reason}.`}
          </p>
        )}
      </div>
      <WorkbenchLayout
        workspace={workspace}
        theme={theme}
        visibility={{ ...visibility, editor: true, preview: true }}
        readOnly={viewOnly}
        layoutKey={layoutKey}
        problemsFocus={problemsFocus}
        scmRequests={scmRequests}
        showTerminal={() => {
          if (!visibility.terminal) toggle(layoutKey, 'terminal')
        }}
        side={
          lab && labSnap.lab.kind !== 'none' ? (
            <Suspense fallback={null}>
              <LabSide lab={lab} editor={editor} />
            </Suspense>
          ) : undefined
        }
      />
      <StatusBar session={session}>
        <TerminalEchoStatus terminals={terminals} />
        {language && (
          <Suspense fallback={null}>
            <LanguageStatus language={language} onShowProblems={showProblems} />
          </Suspense>
        )}
      </StatusBar>
      {paletteWanted && (
        <Suspense fallback={null}>
          <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} commands={commands} />
        </Suspense>
      )}
      {views && <views.QuickOpenOverlays workspace={workspace} />}
      {shareWanted && session.address.source === 'local' && (
        <Suspense fallback={null}>
          <ShareDialog
            sandboxId={session.address.sandboxId}
            open={shareOpen}
            onClose={() => setShareOpen(false)}
          />
        </Suspense>
      )}
    </div>
  )
}
