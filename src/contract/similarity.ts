// Similar submissions of a lab (/ide/api/classes/{name}/similar?lab=…), for the teacher to read:
// pairs of students' latest submissions that share code beyond the lab's starting files.

/** One side of a pair: a student's latest submission of the lab. */
export interface SimilarSubmission {
  student: string
  sandboxId: string
  submissionId: string
  submittedAt: string
}

/** Lines of one submitted file. */
export interface SimilarLines {
  path: string
  from: number
  to: number
}

export interface SimilarPair {
  a: SimilarSubmission
  b: SimilarSubmission
  /** Shared fingerprints over the smaller submission's: 0 to 1. */
  score: number
  /** Shared over all distinct fingerprints of the two: 0 to 1. */
  jaccard: number
  /** How many fingerprints they share. */
  shared: number
  /** Where: lines of a's files and lines of b's that match, in a's order. */
  regions: { a: SimilarLines; b: SimilarLines }[]
}

export interface SimilarityReport {
  className: string
  lab: string
  /** Students whose latest submissions were compared. */
  compared: number
  /** Tokens per k-gram and winnowing's window. */
  k: number
  w: number
  /** Fingerprints not counted: of the starting files, or shared by most of the class. */
  ignored: { starting: number; common: number }
  /** Files not compared, and why. */
  skipped: { student: string; path: string; why: 'binary' | 'too large' }[]
  /** The most similar first. */
  pairs: SimilarPair[]
}
