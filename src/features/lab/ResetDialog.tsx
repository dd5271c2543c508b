import { ConfirmDialog } from '../../ui/ConfirmDialog'

/** "Reset the lab?": Cancel has the focus, Escape cancels. */
export function ResetDialog({
  open,
  paths,
  onAnswer,
}: {
  open: boolean
  /** What comes back; undefined for every starting file. */
  paths: string[] | undefined
  onAnswer(confirmed: boolean): void
}) {
  const what = paths ? paths.join(', ') : 'every file the lab started with'
  return (
    <ConfirmDialog open={open} id="lab-reset" title="Reset the lab?" confirm="Reset" onAnswer={onAnswer}>
      The starting version of {what} comes back, and your changes to them are lost. Files you added are kept.
    </ConfirmDialog>
  )
}
