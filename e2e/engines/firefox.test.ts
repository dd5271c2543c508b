// The core browser tests in Debian's Firefox ESR, over WebDriver BiDi (e2e/engines/coreFlows.ts).
import { describeCoreFlows } from './coreFlows'
import { launchFirefox } from './firefox'

describeCoreFlows('firefox', launchFirefox)
