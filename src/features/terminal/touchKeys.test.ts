import { describe, expect, it } from 'vitest'
import { StickyCtrl, touchKeySequence, withCtrl } from './touchKeys'

describe('touch keys', () => {
  it('send Escape and Tab as their bytes', () => {
    expect(touchKeySequence('Escape')).toBe('\x1b')
    expect(touchKeySequence('Tab')).toBe('\t')
  })

  it('send arrows in the cursor-key mode the program asked for, and with Ctrl as xterm does', () => {
    expect(touchKeySequence('ArrowUp')).toBe('\x1b[A')
    expect(touchKeySequence('ArrowLeft', { applicationCursor: true })).toBe('\x1bOD')
    expect(touchKeySequence('ArrowLeft', { ctrl: true })).toBe('\x1b[1;5D')
    expect(touchKeySequence('ArrowRight', { ctrl: true, applicationCursor: true })).toBe('\x1b[1;5C')
  })

  it('turn the next typed character into its control code, and leave other text alone', () => {
    expect(withCtrl('c')).toBe('\x03')
    expect(withCtrl('C')).toBe('\x03')
    expect(withCtrl('d')).toBe('\x04')
    expect(withCtrl('[')).toBe('\x1b')
    expect(withCtrl('\\')).toBe('\x1c')
    expect(withCtrl('_')).toBe('\x1f')
    expect(withCtrl(' ')).toBe('\x00')
    expect(withCtrl('?')).toBe('\x7f')
    expect(withCtrl('1')).toBe('1')
    expect(withCtrl('hello')).toBe('hello')
    expect(withCtrl('é')).toBe('é')
  })

  it('keep Ctrl on for exactly the next key, and tell the bar when it changes', () => {
    const ctrl = new StickyCtrl()
    let changes = 0
    ctrl.subscribe(() => changes++)
    expect(ctrl.take()).toBe(false)
    ctrl.set(true)
    expect(ctrl.getSnapshot()).toBe(true)
    expect(ctrl.take()).toBe(true)
    expect(ctrl.take()).toBe(false)
    expect(changes).toBe(2)
  })
})
