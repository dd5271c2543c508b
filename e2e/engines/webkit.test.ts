// The core browser tests in Debian's WebKitGTK (MiniBrowser), over WebDriver (e2e/engines/coreFlows.ts).
import { describeCoreFlows } from './coreFlows'
import { launchWebKit } from './webkit'

describeCoreFlows('webkit', launchWebKit)
