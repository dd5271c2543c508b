/** The prompt every bench shell is given (PS1), so "the prompt is back" is one marker to look for. */
export const benchPrompt = 'bench-ready$ '
