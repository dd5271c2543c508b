/** A function that runs in the page; its source crosses to the browser, so it closes over nothing. */
// biome-ignore lint/suspicious/noExplicitAny: page functions take what the test passes them
export type PageFunction<T = unknown> = (...args: any[]) => T

/**
 * What the engine tests need of a browser page, whatever drives it (Puppeteer over WebDriver
 * BiDi for Firefox, WebDriver classic for WebKitGTK): scripts in the page, real clicks on
 * elements a script finds, and keys typed into what has the focus.
 */
export interface EnginePage {
  goto(url: string): Promise<void>
  reload(): Promise<void>
  evaluate<T>(fn: PageFunction<T>, ...args: unknown[]): Promise<T>
  /** Resolves once `fn` returns something truthy in the page; rejects after `timeoutMs`. */
  waitUntil(fn: PageFunction, args: unknown[], timeoutMs: number): Promise<void>
  /** Clicks, with the driver's pointer, the element `find` returns in the page. */
  click(find: PageFunction<Element | null>, ...args: unknown[]): Promise<void>
  /** Types text (a newline is Enter) into the element with the focus. */
  keys(text: string): Promise<void>
  /** Presses one named key (Enter, F2, Delete, End, Space), with Control held when asked. */
  press(
    key: 'Enter' | 'F2' | 'Delete' | 'End' | 's' | 'Space',
    options?: { control?: boolean },
  ): Promise<void>
  /** The page inside the iframe `selector` matches. */
  frame(selector: string): Promise<EnginePage>
  screenshot(path: string): Promise<void>
}

/** A browser with fresh, separate pages (a new profile or context each: nothing shared but the sandbox). */
export interface EngineBrowser {
  newPage(): Promise<EnginePage>
  close(): Promise<void>
}
