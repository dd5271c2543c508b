// The compiled addon (node-gyp builds it at install). Loaded by path so the sandbox runtime's
// bundle can require it from where the launcher binds this folder.
module.exports = require('./build/Release/fs_entries.node')
