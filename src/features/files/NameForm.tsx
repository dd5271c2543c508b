import { useEffect, useRef } from 'react'

/** A one-line form for a name (new file, new folder, rename); Escape cancels. */
export function NameForm({
  label,
  initial,
  onSubmit,
  onCancel,
}: {
  label: string
  initial: string
  onSubmit(name: string): void
  onCancel(): void
}) {
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    const field = input.current
    if (!field) return
    field.focus()
    // Select the name without its extension, as file managers do for a rename.
    const dot = initial.lastIndexOf('.')
    field.setSelectionRange(0, dot > 0 ? dot : initial.length)
  }, [initial])
  return (
    <form
      className="name-form"
      onSubmit={(e) => {
        e.preventDefault()
        onSubmit(input.current?.value ?? '')
      }}
    >
      <label>
        {label}
        <input
          ref={input}
          defaultValue={initial}
          spellCheck={false}
          autoComplete="off"
          onKeyDown={(e) => {
            if (e.key === 'Escape') onCancel()
          }}
        />
      </label>
    </form>
  )
}
