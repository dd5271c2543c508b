// Apart from the manifest's parser, so the workbench can look for a lab without loading zod.

/** Where a sandbox says it holds a lab, relative to its home folder. */
export const labManifestPath = '.lab/lab.json'

/** Where the platform (or a template's build) keeps the lab's untouched starting files. */
export const labStartPath = '.lab/start'
