import { describe, expect, it, vi } from 'vitest'
import { type TreeKeyRow, treeKey } from './treeKeys'

function press(key: string, row: Partial<TreeKeyRow>) {
  const on = { moveTo: vi.fn(), toggle: vi.fn(), activate: vi.fn() }
  const action = treeKey(key, { index: 5, count: 100, expanded: undefined, parent: () => 2, ...row }, on)
  action?.()
  return { handled: !!action, ...on }
}

describe('tree keys', () => {
  it('moves by one, to the ends, and by a page', () => {
    expect(press('ArrowDown', {}).moveTo).toHaveBeenCalledWith(6)
    expect(press('ArrowUp', {}).moveTo).toHaveBeenCalledWith(4)
    expect(press('Home', {}).moveTo).toHaveBeenCalledWith(0)
    expect(press('End', {}).moveTo).toHaveBeenCalledWith(99)
    expect(press('PageDown', {}).moveTo).toHaveBeenCalledWith(25)
    expect(press('PageUp', { index: 30 }).moveTo).toHaveBeenCalledWith(10)
  })

  it('Right opens a closed row, then goes into it; does nothing on a leaf', () => {
    expect(press('ArrowRight', { expanded: false }).toggle).toHaveBeenCalled()
    expect(press('ArrowRight', { expanded: true }).moveTo).toHaveBeenCalledWith(6)
    const leaf = press('ArrowRight', {})
    expect([leaf.handled, leaf.moveTo.mock.calls.length, leaf.toggle.mock.calls.length]).toEqual([true, 0, 0])
  })

  it('Left closes an open row, else goes up to its parent, and stays at the top', () => {
    expect(press('ArrowLeft', { expanded: true }).toggle).toHaveBeenCalled()
    expect(press('ArrowLeft', { expanded: false }).moveTo).toHaveBeenCalledWith(2)
    expect(press('ArrowLeft', { parent: () => undefined }).moveTo).not.toHaveBeenCalled()
  })

  it('Enter activates; other keys are left to the tree', () => {
    expect(press('Enter', {}).activate).toHaveBeenCalled()
    expect(press('F2', {}).handled).toBe(false)
  })
})
