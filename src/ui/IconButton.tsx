import type { ButtonHTMLAttributes } from 'react'
import { Icon } from './Icon'

type IconButtonProps = Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'children' | 'aria-label' | 'aria-pressed' | 'aria-expanded'
> & {
  /** A codicon's name, as for Icon. */
  icon: string
  /** What the button does, in words: its accessible name (and the tooltip of a mouseOnly one). */
  label: string
  /** A toggle: on or off (aria-pressed). */
  pressed?: boolean
  /** Opens and closes something (aria-expanded). */
  expanded?: boolean
  /**
   * For the mouse alone, where the keyboard does the same another way (a tab's close button:
   * a tablist holds tabs only, so Delete closes the tab). Screen readers and Tab skip it, and
   * its label is a tooltip.
   */
  mouseOnly?: boolean
  /** Drawn as an ordinary button, border and all, among other buttons (the preview's bar). */
  framed?: boolean
}

/** A button that shows only an icon; the label says in words what it does. */
export function IconButton({
  icon,
  label,
  pressed,
  expanded,
  mouseOnly = false,
  framed = false,
  className,
  ...props
}: IconButtonProps) {
  const classes = [framed ? undefined : 'icon-button', className].filter(Boolean).join(' ') || undefined
  return (
    <button
      type="button"
      className={classes}
      aria-label={mouseOnly ? undefined : label}
      title={mouseOnly ? label : undefined}
      aria-hidden={mouseOnly ? true : undefined}
      tabIndex={mouseOnly ? -1 : undefined}
      aria-pressed={pressed}
      aria-expanded={expanded}
      {...props}
    >
      <Icon name={icon} />
    </button>
  )
}
