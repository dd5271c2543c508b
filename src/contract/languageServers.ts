// Where the local stack puts the language servers every sandbox may run (`npm start` installs
// them, the launcher binds them in read-only). The IDE looks there after the sandbox's own PATH,
// so a sandbox (or an E2B template) with servers of its own uses those; on E2B the folder is
// simply not there.

/** The folder, inside a sandbox of the local stack, that holds the installed servers. */
export const localLanguageServersDir = '/opt/sandbox-ide/language-servers'

/** Where their commands are: searched after the sandbox's own PATH. */
export const localLanguageServersBin = `${localLanguageServersDir}/node_modules/.bin`
