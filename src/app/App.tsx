import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { Suspense } from 'react'
import { localStack } from '../sandbox/localStack'
import type { SandboxAddress } from '../sandbox/sandboxAddress'
import { lazyNamed } from '../ui/lazyNamed'
import { Notifications } from '../ui/Notifications'
import { PartBoundary } from '../ui/PartBoundary'
import { Splash } from '../ui/Splash'
import { type Theme, useApplyTheme } from '../ui/themeStore'
import { useSandboxSession } from '../workbench/useSandboxSession'
import { usePanelCode } from '../workbench/WorkbenchLayout'
import { navigate, parseRoute, pathFor, rememberRuntime, usePath } from './route'
import { SignInGate } from './SignInGate'
import { Workbench } from './Workbench'

// Only an iframe loads it, with its protocol and request checks (zod).
const EmbedPage = lazyNamed(() => import('../embed/EmbedPage'), 'EmbedPage')
// Only a teacher opens it.
const ClassDashboard = lazyNamed(() => import('../features/classroom/ClassDashboard'), 'ClassDashboard')
const ClassList = lazyNamed(() => import('../features/classroom/ClassDashboard'), 'ClassList')
// A workbench opened by its address never shows the picker.
const SandboxPicker = lazyNamed(() => import('../features/picker/SandboxPicker'), 'SandboxPicker')

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } })

function open(address: SandboxAddress) {
  if (address.source === 'runtime') rememberRuntime(address.runtimeUrl, address.accessToken)
  navigate(pathFor(address))
}

function WorkbenchPage({ address, theme }: { address: SandboxAddress; theme: Theme }) {
  const session = useSandboxSession(address)
  usePanelCode({ explorer: true, editor: true })
  if (!session) return <Splash text="Connecting…" />
  return <Workbench session={session} theme={theme} />
}

function Picker() {
  return (
    <Suspense fallback={<Splash text="Loading…" />}>
      <SandboxPicker onOpen={open} />
    </Suspense>
  )
}

/** `/` opens the local stack's default sandbox with no questions; without one, the picker. */
function DefaultPage({ theme }: { theme: Theme }) {
  const stack = useQuery({ queryKey: ['stack'], queryFn: localStack.info })
  if (stack.isPending) return <Splash text="Connecting to the local stack…" />
  const defaultId = stack.data?.defaultSandboxId
  if (!defaultId) return <Picker />
  return <WorkbenchPage address={{ source: 'local', sandboxId: defaultId }} theme={theme} />
}

/** The application: the title bar, the page the URL names, and notifications. */
export function App() {
  return (
    // Anything that still throws while rendering says so, rather than leaving a blank page.
    <PartBoundary label="The IDE">
      <Page />
    </PartBoundary>
  )
}

function Page() {
  const theme = useApplyTheme()
  const route = parseRoute(usePath())
  // Inside another page (/embed): no title bar, no way to other sandboxes.
  const embedded = route.page === 'embed'
  return (
    <QueryClientProvider client={queryClient}>
      <div className={embedded ? 'app embedded' : 'app'}>
        {!embedded && (
          <header className="app-header">
            <h1 className="app-title">Sandbox IDE</h1>
          </header>
        )}
        {embedded && (
          <Suspense fallback={<Splash text="Loading…" />}>
            <EmbedPage theme={theme} />
          </Suspense>
        )}
        {route.page === 'default' && (
          <SignInGate>
            <DefaultPage theme={theme} />
          </SignInGate>
        )}
        {route.page === 'class' && (
          <SignInGate>
            <Suspense fallback={<Splash text="Loading…" />}>
              {route.name ? (
                <ClassDashboard name={route.name} {...(route.remoteId ? { remoteId: route.remoteId } : {})} />
              ) : (
                <ClassList />
              )}
            </Suspense>
          </SignInGate>
        )}
        {route.page === 'picker' && (
          <SignInGate>
            <Picker />
          </SignInGate>
        )}
        {route.page === 'workbench' &&
          // A runtime's own URL and token need nothing of the local stack.
          (route.address.source === 'runtime' ? (
            <WorkbenchPage address={route.address} theme={theme} />
          ) : (
            <SignInGate>
              <WorkbenchPage address={route.address} theme={theme} />
            </SignInGate>
          ))}
        <Notifications />
      </div>
    </QueryClientProvider>
  )
}
