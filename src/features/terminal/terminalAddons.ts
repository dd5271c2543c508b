import type { SearchAddon } from '@xterm/addon-search'
import type { SerializeAddon } from '@xterm/addon-serialize'
import { WebLinksAddon } from '@xterm/addon-web-links'
import type { WebglAddon } from '@xterm/addon-webgl'
import type { ITerminalAddon, Terminal } from '@xterm/xterm'
import { webglIsHardware } from './webglIsHardware'

/** Which renderer draws a terminal; shown as `data-renderer` on its screen element. */
export type TerminalRenderer = 'webgl' | 'dom'

/**
 * The WebGL renderer's code (36 kB gzipped), fetched the first time a terminal can use it: a page
 * without a GPU (or with software WebGL, where the DOM renderer is faster) never loads it, and
 * one with a GPU shows its terminal on the DOM renderer a moment first.
 */
let webglModule: Promise<typeof import('@xterm/addon-webgl')> | undefined
const loadWebglModule = () => {
  webglModule ??= import('@xterm/addon-webgl')
  return webglModule
}

/**
 * Unicode 11's width tables (9 kB gzipped), fetched as soon as the page starts, in parallel with
 * everything else, rather than in the script that must arrive before anything renders.
 */
let unicodeModule: Promise<typeof import('@xterm/addon-unicode11')> | undefined
const loadUnicodeModule = () => {
  unicodeModule ??= import('@xterm/addon-unicode11')
  return unicodeModule
}
void loadUnicodeModule().catch(() => {})

/** Drops the WebGL contexts of a terminal's canvases now rather than at garbage collection. */
function releaseContexts(canvases: HTMLCanvasElement[]): void {
  // A canvas that draws in 2D (xterm's link layer) answers null here, so only GL contexts are lost.
  for (const canvas of canvases)
    canvas.getContext('webgl2')?.getExtension('WEBGL_lose_context')?.loseContext()
}

/**
 * The addons of one terminal: Unicode 11 widths (emoji and CJK take two cells, as the shell's
 * wcwidth says), web links, serialization (fetched after the start), search (fetched when first
 * used), and the WebGL renderer while the terminal is on screen, where a GPU draws it (software
 * WebGL is slower than the DOM renderer).
 * Browsers keep only ~16 WebGL contexts per page and silently drop the oldest, so a terminal holds
 * one only while visible (hidden tabs and detached views hold none); a lost context falls back to
 * the DOM renderer, which always works.
 */
export class TerminalAddons {
  private searchAddon: Promise<SearchAddon> | undefined
  private serializer: SerializeAddon | undefined
  private readonly others: ITerminalAddon[] = []
  private webgl: WebglAddon | undefined
  /** WebGL failed or lost its context: stay on the DOM renderer until the next attach. */
  private webglBroken = false
  /** Whether the terminal is on screen now (WebGL is loaded only then). */
  private visible = false
  private disposed = false
  private readonly visibility = new IntersectionObserver((entries) => {
    const last = entries.at(-1)
    if (last) this.onVisible(last.isIntersecting)
  })

  /**
   * Resolves once Unicode 11 widths are in use (or could not be fetched: xterm's own Unicode 6
   * then). Output parsed before would take other widths than the shell's, so none is written
   * before it resolves.
   */
  readonly widths: Promise<void>

  constructor(
    private readonly term: Terminal,
    private readonly screen: HTMLElement,
    /** Opens a printed link that was clicked (a localhost link: the sandbox's port, not this machine's). */
    openLink: (uri: string) => void,
  ) {
    this.widths = loadUnicodeModule().then(
      ({ Unicode11Addon }) => {
        if (this.disposed) return
        const unicode = new Unicode11Addon()
        this.others.push(unicode)
        term.loadAddon(unicode)
        term.unicode.activeVersion = '11'
      },
      () => {},
    )
    const links = new WebLinksAddon((event, uri) => {
      event.preventDefault()
      openLink(uri)
    })
    this.others.push(links)
    term.loadAddon(links)
    // Needed only when the page goes (to keep the screen for a reload): fetched after the start.
    void import('@xterm/addon-serialize').then(
      ({ SerializeAddon }) => {
        if (this.disposed) return
        this.serializer = new SerializeAddon()
        term.loadAddon(this.serializer)
      },
      () => {},
    )
    this.mark('dom')
  }

  /** The search addon, fetched and loaded the first time find is opened in this terminal. */
  readonly search = (): Promise<SearchAddon> => {
    this.searchAddon ??= import('@xterm/addon-search').then(({ SearchAddon }) => {
      const addon = new SearchAddon()
      if (!this.disposed) this.term.loadAddon(addon)
      return addon
    })
    return this.searchAddon
  }

  /** The screen and `scrollback` lines as escape sequences; undefined until its code is here. */
  serialize(scrollback: number): string | undefined {
    return this.serializer?.serialize({ scrollback })
  }

  /** The renderer in use now. */
  get renderer(): TerminalRenderer {
    return this.webgl ? 'webgl' : 'dom'
  }

  /** The terminal is in the page inside `host`: render with WebGL whenever the host is visible. */
  attach(host: HTMLElement): void {
    this.webglBroken = false
    this.visibility.disconnect()
    this.visibility.observe(host)
  }

  /** The terminal left the page: give its WebGL context back. */
  detach(): void {
    this.visible = false
    this.visibility.disconnect()
    this.unloadWebgl()
  }

  dispose(): void {
    this.disposed = true
    this.detach()
    void this.searchAddon?.then((addon) => addon.dispose()).catch(() => {})
    this.serializer?.dispose()
    for (const addon of this.others) addon.dispose()
  }

  private onVisible(visible: boolean): void {
    this.visible = visible
    if (!visible) this.unloadWebgl()
    else if (!this.webgl && !this.webglBroken) void this.loadWebgl()
  }

  private async loadWebgl(): Promise<void> {
    if (!webglIsHardware()) {
      this.webglBroken = true
      return
    }
    let module: typeof import('@xterm/addon-webgl')
    try {
      module = await loadWebglModule()
    } catch {
      // Offline, or the chunk is gone after a deploy: the DOM renderer is what we have.
      this.webglBroken = true
      return
    }
    // Things may have changed while the code loaded.
    if (this.disposed || !this.visible || this.webgl || this.webglBroken) return
    let addon: WebglAddon | undefined
    try {
      addon = new module.WebglAddon()
      this.term.loadAddon(addon)
    } catch {
      // No WebGL2 here (blocklisted GPU, old Safari): the DOM renderer is what we have.
      addon?.dispose()
      this.webglBroken = true
      return
    }
    addon.onContextLoss(() => {
      this.webglBroken = true
      this.unloadWebgl()
    })
    this.webgl = addon
    this.mark('webgl')
  }

  private unloadWebgl(): void {
    const addon = this.webgl
    if (!addon) return
    this.webgl = undefined
    // Disposing the addon leaves its context alive until GC (xterm.js#6068); take the canvases first.
    const canvases = [
      ...(this.term.element?.querySelectorAll<HTMLCanvasElement>('.xterm-screen canvas') ?? []),
    ]
    addon.dispose()
    releaseContexts(canvases)
    this.mark('dom')
  }

  private mark(renderer: TerminalRenderer): void {
    this.screen.dataset.renderer = renderer
  }
}
